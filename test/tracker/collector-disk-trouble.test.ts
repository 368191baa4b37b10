/**
 * The embedded disk store when its disk is the trouble, through the real `mockyard --tracker`
 * process: a full disk (a real tmpfs filled up; needs root and mount) answers ingest 503 with the
 * reason and Retry-After, stores no partial batch (also on disk: a restart finds exactly the
 * acknowledged batches) and writes again once space is freed, without a restart; an events folder
 * the process may not write or read (the CLI run as `nobody`, so permissions are real under root)
 * answers 503 with the reason, and works again once the permissions are fixed. Skipped, saying
 * why, where the machine cannot mount or drop privileges.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmod, chown, mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { compileSources } from '../helpers/built-src.js';
import { cannotDropPrivileges } from '../helpers/disk-as-user.js';
import { makeTempDir, removeTempDirs } from '../helpers/temp-dir.js';

const NOBODY = 65534;
const DAY = '2026-03-01';
let cli: string;
const children = new Set<ChildProcess>();
const mounts: string[] = [];

function cannotMount(): string | null {
  if (process.getuid?.() !== 0) return 'not running as root';
  const probe = spawnSync('sh', ['-c', 'd=$(mktemp -d) && mount -t tmpfs -o size=64k tmpfs "$d" && umount "$d"; r=$?; rmdir "$d"; exit $r']);
  return probe.status === 0 ? null : `mount -t tmpfs is refused here (${probe.stderr.toString().trim() || `exit ${probe.status}`})`;
}
const noMount = cannotMount();
const noSetpriv = cannotDropPrivileges();

beforeAll(() => {
  if (noMount && noSetpriv) return;
  cli = join(compileSources('collector-disk-trouble'), 'node', 'cli.js');
}, 120_000);
afterEach(async () => {
  await Promise.all([...children].map((c) => new Promise<void>((resolve) => {
    if (c.exitCode !== null || c.signalCode !== null) return resolve();
    c.once('exit', () => resolve());
    c.kill('SIGKILL');
  })));
});
afterAll(async () => {
  for (const m of mounts) spawnSync('umount', [m]);
  await removeTempDirs();
});

async function startCli(cwd: string, asNobody = false): Promise<{ child: ChildProcess; url: string; output: () => string }> {
  const argv = [cli, '--tracker', '--quiet', '--port', '0'];
  const child = asNobody
    ? spawn('setpriv', ['--reuid', String(NOBODY), '--regid', String(NOBODY), '--clear-groups', process.execPath, ...argv], { cwd, stdio: ['ignore', 'pipe', 'pipe'] })
    : spawn(process.execPath, argv, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  child.once('exit', () => children.delete(child));
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d));
  child.stderr!.on('data', (d: Buffer) => (out += d));
  return new Promise((resolve, reject) => {
    const onData = () => {
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m && out.includes('Press Ctrl+C')) {
        child.stdout!.off('data', onData);
        resolve({ child, url: m[1]!, output: () => out });
      }
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
  });
}

function body(batchId: string, n: number, pad = 0): string {
  const events = Array.from({ length: n }, (_, i) => ({ id: '', timestamp: `${DAY}T${i % 2 ? '10' : '11'}:00:${String(i % 60).padStart(2, '0')}Z`, b: batchId, i, pad: 'x'.repeat(pad) }));
  return JSON.stringify({ type: 'ingest', batchId, events });
}

const post = (url: string, batchId: string, n: number, pad = 0) => fetch(`${url}/_tracker/events`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: body(batchId, n, pad) });

async function byBatch(url: string): Promise<Map<string, number>> {
  const res = await fetch(`${url}/_tracker?since=${DAY}T00:00:00Z&until=${DAY}T23:59:59Z`);
  expect(res.status).toBe(200);
  const json = (await res.json()) as { events: Array<{ b: string }>; total: number };
  const m = new Map<string, number>();
  for (const e of json.events) m.set(e.b, (m.get(e.b) ?? 0) + 1);
  return m;
}

async function until(what: string, probe: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.skipIf(noMount !== null)(`a full disk${noMount ? ` (skipped: ${noMount})` : ''}`, () => {
  it('answers 503 with the reason, keeps no partial batch, and writes again once space is freed', async () => {
    const dir = await makeTempDir();
    const mnt = join(dir, 'mnt');
    await mkdir(mnt);
    expect(spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=256k', 'tmpfs', mnt]).status).toBe(0);
    mounts.push(mnt);
    // Most of the disk taken by a filler, so a few batches fill the rest.
    await writeFile(join(mnt, 'filler'), Buffer.alloc(180 * 1024));
    await writeFile(join(dir, 'mockyard.config.mjs'), `export default { mock: { fsDir: './mocks' }, tracker: { appId: 'disk', storageDir: ${JSON.stringify(join(mnt, 'events'))} } };`);
    const a = await startCli(dir);
    const acked = new Map<string, number>();
    let refused: Response | undefined;
    for (let k = 0; k < 200 && !refused; k++) {
      // Batches spanning two hour segments, so a refused one may have had a part written.
      const res = await post(a.url, `b${k}`, 20, 300);
      if (res.status === 200) acked.set(`b${k}`, 20);
      else refused = res;
    }
    expect(refused?.status).toBe(503);
    expect(refused!.headers.get('retry-after')).toBe('2');
    expect(((await refused!.json()) as { message: string }).message).toBe('Could not store the events: the disk is full (ENOSPC); try again later');
    expect(acked.size).toBeGreaterThan(2);
    expect(await byBatch(a.url)).toEqual(acked);
    expect((await fetch(`${a.url}/_tracker/ping`)).status).toBe(200); // reads are still answered

    await rm(join(mnt, 'filler'));
    const after = await post(a.url, 'after', 20, 300);
    expect(after.status).toBe(200);
    acked.set('after', 20);
    expect(a.output()).toContain('events are written to disk again');

    a.child.kill('SIGKILL');
    await new Promise((r) => a.child.once('exit', r));
    const b = await startCli(dir);
    expect(await byBatch(b.url)).toEqual(acked);
  }, 60_000);
});

describe.skipIf(noSetpriv !== null)(`an events folder the collector may not use${noSetpriv ? ` (skipped: ${noSetpriv})` : ''}`, () => {
  async function nobodyDir(): Promise<{ dir: string; events: string }> {
    const dir = await makeTempDir();
    await chown(dir, NOBODY, NOBODY);
    const events = join(dir, 'events');
    await mkdir(events);
    await writeFile(join(dir, 'mockyard.config.mjs'), `export default { mock: { fsDir: './mocks' }, tracker: { appId: 'perm', storageDir: './events' } };`);
    await chown(join(dir, 'mockyard.config.mjs'), NOBODY, NOBODY);
    return { dir, events };
  }

  it('not writable: ingest 503 with the reason; 200 once the permission is fixed, without a restart', async () => {
    const { dir, events } = await nobodyDir();
    await chmod(events, 0o755); // root's: readable, not writable by nobody
    const c = await startCli(dir, true);
    const res = await post(c.url, 'x', 3);
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('2');
    expect(((await res.json()) as { message: string }).message).toBe('Could not store the events: the events folder may not be written (EACCES); try again later');
    expect(await byBatch(c.url)).toEqual(new Map());
    await chown(events, NOBODY, NOBODY);
    expect((await post(c.url, 'x', 3)).status).toBe(200);
    expect(await byBatch(c.url)).toEqual(new Map([['x', 3]]));
  }, 30_000);

  it('not readable at start: ping, reads and ingest 503 with the reason; loaded in the background once fixed', async () => {
    const { dir, events } = await nobodyDir();
    await chmod(events, 0o700); // root's only
    const c = await startCli(dir, true);
    for (const res of [await fetch(`${c.url}/_tracker/ping`), await fetch(`${c.url}/_tracker?since=${DAY}T00:00:00Z&until=${DAY}T23:59:59Z`), await post(c.url, 'y', 2)]) {
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('2');
      expect(((await res.json()) as { message: string }).message).toBe('Event storage is not loaded (EACCES); try again later');
    }
    expect(c.output()).toContain(`tracker: the events folder ${events} not loaded (EACCES)`);
    await chown(events, NOBODY, NOBODY);
    await until('ping 200', async () => (await fetch(`${c.url}/_tracker/ping`)).status === 200);
    expect((await post(c.url, 'y', 2)).status).toBe(200);
    expect(c.output()).toContain(`tracker: the events folder ${events} loaded`);
  }, 30_000);
});
