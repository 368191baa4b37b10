/**
 * A throwaway PostgreSQL server for tests (Debian package `postgresql`; see
 * ../shared/notes/postgresql.md): `initdb` in a temp folder, `pg_ctl start` on a free loopback
 * port, stopped and removed by `stop()` and, should a test file die, by an exit hook.
 *
 * `postgresBinaries()` finds /usr/lib/postgresql/<highest>/bin. When they are missing, tests that
 * need the server are skipped locally, but under CI (`CI=true`) they FAIL with a message saying
 * what to install: `.ci/run` installs the package, so a missing binary there is a broken set-up.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const IN_CI = process.env.CI === 'true' || process.env.CI === '1';

export function postgresBinaries(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root).filter((v) => /^\d+$/.test(v) && existsSync(join(root, v, 'bin', 'pg_ctl'))).sort((a, b) => Number(b) - Number(a));
  return versions.length ? join(root, versions[0]!, 'bin') : undefined;
}

export const MISSING_MESSAGE =
  'PostgreSQL server binaries not found under /usr/lib/postgresql/<version>/bin: install them (apt-get install -y postgresql) — .ci/run does; the real-server tests cannot run without them';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

export interface PostgresServer {
  url: string;
  port: number;
  /** Stops the server (immediate shutdown, as a crash) and keeps its data: an outage. */
  down(): void;
  /** Starts it again on the same port; returns once it accepts connections. */
  up(): void;
  stop(): void;
}

const running = new Set<() => void>();
process.once('exit', () => {
  for (const stop of running) stop();
});

/** Starts a cluster; throws (with the install hint) when the binaries are missing. */
export async function startPostgres(): Promise<PostgresServer> {
  const bin = postgresBinaries();
  if (!bin) throw new Error(MISSING_MESSAGE);
  const dir = mkdtempSync(join(tmpdir(), 'mockyard-pg-'));
  const root = process.getuid?.() === 0;
  if (root) chownSync(dir, Number(execFileSync('id', ['-u', 'postgres']).toString().trim()), Number(execFileSync('id', ['-g', 'postgres']).toString().trim()));
  const run = (cmd: string, args: string[]) => {
    const r = root
      ? spawnSync('runuser', ['-u', 'postgres', '--', join(bin, cmd), ...args], { cwd: dir, encoding: 'utf8' })
      : spawnSync(join(bin, cmd), args, { cwd: dir, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`${cmd} failed (${r.status}): ${r.stdout}${r.stderr}`);
  };
  const port = await freePort();
  const data = join(dir, 'data');
  let started = false;
  const startArgs = ['-D', data, '-l', join(dir, 'log'), '-w', '-o', `-c listen_addresses=127.0.0.1 -c port=${port} -c unix_socket_directories=${dir} -c fsync=off -c max_connections=200`, 'start'];
  const stop = () => {
    running.delete(stop);
    try {
      if (started) run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
    } catch {
      // already gone
    }
    rmSync(dir, { recursive: true, force: true });
  };
  running.add(stop);
  try {
    run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
    run('pg_ctl', startArgs);
    started = true;
  } catch (err) {
    stop();
    throw err;
  }
  // Watchdog: a test process killed outright runs no exit hook; this detached shell stops the
  // cluster and removes its folder once this process is gone.
  const ctl = `${root ? 'runuser -u postgres -- ' : ''}'${join(bin, 'pg_ctl')}' -D '${data}' -m immediate -w stop`;
  spawn('sh', ['-c', `while kill -0 ${process.pid} 2>/dev/null; do sleep 1; done; cd '${dir}' && ${ctl} >/dev/null 2>&1; rm -rf '${dir}'`], { detached: true, stdio: 'ignore' }).unref();
  const down = () => {
    if (!started) return;
    run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
    started = false;
  };
  const up = () => {
    if (started) return;
    run('pg_ctl', startArgs);
    started = true;
  };
  return { url: `postgres://postgres@127.0.0.1:${port}/postgres`, port, down, up, stop };
}
