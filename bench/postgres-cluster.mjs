// A throwaway PostgreSQL cluster for the collector benches: initdb / pg_ctl from
// /usr/lib/postgresql/<v>/bin in a temp folder (as the `postgres` user when run as root), on a
// free loopback port, fsync on; or the server named by MOCKYARD_BENCH_DB.
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function freePort() {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.once('error', fail);
    s.listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => ok(port)); });
  });
}

/** `settings`: extra `-c name=value` server settings. Returns { url, down(), up(), stop() }. */
export async function cluster(settings = []) {
  if (process.env.MOCKYARD_BENCH_DB) return { url: process.env.MOCKYARD_BENCH_DB, stop() {} };
  const root = '/usr/lib/postgresql';
  const v = existsSync(root) ? readdirSync(root).filter((x) => /^\d+$/.test(x)).sort((x, y) => y - x)[0] : undefined;
  if (!v) throw new Error('PostgreSQL binaries not found (apt-get install -y postgresql) and MOCKYARD_BENCH_DB not set');
  const bin = join(root, v, 'bin');
  const dir = mkdtempSync(join(tmpdir(), 'mockyard-bench-pg-'));
  const asRoot = process.getuid() === 0;
  if (asRoot) chownSync(dir, Number(execFileSync('id', ['-u', 'postgres'])), Number(execFileSync('id', ['-g', 'postgres'])));
  const run = (cmd, args) => {
    const r = asRoot ? spawnSync('runuser', ['-u', 'postgres', '--', join(bin, cmd), ...args], { cwd: dir, encoding: 'utf8' }) : spawnSync(join(bin, cmd), args, { cwd: dir, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`${cmd}: ${r.stdout}${r.stderr}`);
  };
  const port = await freePort();
  run('initdb', ['-D', join(dir, 'data'), '-A', 'trust', '-U', 'postgres']);
  const extra = ['shared_buffers=256MB', ...settings].map((s) => `-c ${s}`).join(' ');
  const start = () => run('pg_ctl', ['-D', join(dir, 'data'), '-l', join(dir, 'log'), '-w', '-o', `-c listen_addresses=127.0.0.1 -c port=${port} -c unix_socket_directories=${dir} ${extra}`, 'start']);
  start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    /** An outage: immediate shutdown (as a crash), data kept; `up()` starts it again. */
    down() { run('pg_ctl', ['-D', join(dir, 'data'), '-m', 'immediate', '-w', 'stop']); },
    up: start,
    stop() { try { run('pg_ctl', ['-D', join(dir, 'data'), '-m', 'fast', '-w', 'stop']); } finally { rmSync(dir, { recursive: true, force: true }); } },
  };
}
