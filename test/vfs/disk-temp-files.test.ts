/**
 * Crash leftovers of the disk driver's atomic writes (`.mockyard-tmp-<pid>-<n>`): never visible
 * through any method, lookup or listing, and swept at start-up when their writer is gone. The
 * leftover comes from a real process killed with SIGKILL in the middle of a write; the checks go
 * through a real server.
 */
import { spawn } from 'node:child_process';
import { mkdir, readdir, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { diskFs, STALE_TEMP_MS } from '../../src/vfs/disk.js';
import { isVfsError } from '../../src/vfs/types.js';
import { compileSources } from '../helpers/built-src.js';
import { closeServers, startServer } from '../helpers/server.js';
import { makeTempDir, removeTempDirs } from '../helpers/temp-dir.js';

afterEach(closeServers);
afterAll(removeTempDirs);

const BIG = 64 * 1024 * 1024;

// The child writes a big file through diskFs; once its temp file holds some bytes it stops its
// event loop (so the write cannot finish) and says so; the test then kills it with SIGKILL.
const WRITER = `
import { readdirSync, statSync } from 'node:fs';
const { diskFs } = await import(process.argv[2] + '/vfs/disk.js');
const dir = process.argv[3];
const vfs = diskFs(dir);
void vfs.write('big.bin', new Uint8Array(${BIG}).fill(7));
const poll = () => {
  const tmp = readdirSync(dir).find((n) => n.startsWith('.mockyard-tmp-'));
  if (tmp && statSync(dir + '/' + tmp).size > 0) {
    process.stdout.write(tmp + '\\n');
    for (;;) {} // mid-write, forever
  }
  setImmediate(poll);
};
poll();
`;

let built: string | undefined;

/** Runs the writer in `dir`, kills it with SIGKILL mid-write; returns the leftover's name. */
async function crashMidWrite(dir: string): Promise<{ name: string; pid: number }> {
  built ??= compileSources('disk-temp-files');
  const script = join(built, 'crash-writer.mjs');
  await writeFile(script, WRITER);
  const child = spawn(process.execPath, [script, built, dir], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
  const name = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`writer exited (${code}) before writing`)));
  });
  child.kill('SIGKILL');
  expect(await exited).toBe('SIGKILL');
  return { name, pid: child.pid! };
}

describe('crash leftovers of atomic writes', () => {
  it('a writer killed mid-write leaves a partial temp file and no target', async () => {
    const dir = await makeTempDir();
    const { name, pid } = await crashMidWrite(dir);
    expect(name).toBe(`.mockyard-tmp-${pid}-1`);
    expect(await readdir(dir)).toEqual([name]);
    const size = (await stat(join(dir, name))).size;
    expect(size).toBeGreaterThan(0);
    expect(size).toBeLessThan(BIG);
  });

  it('are never visible through any method, lookup or listing of a real server', async () => {
    const dir = await makeTempDir();
    await writeFile(join(dir, 'users.json'), '[{"id":1}]');
    const { name } = await crashMidWrite(dir);
    // A live writer's temp file too (this process's pid: kept by the sweep, hidden all the same).
    const live = `.mockyard-tmp-${process.pid}-999999`;
    await writeFile(join(dir, live), '{"partial":');
    const vfs = diskFs(dir);
    const server = await startServer({ mock: { endpointPrefix: '/api', fs: vfs, logLevel: 'silent' } });
    for (const leftover of [live, name]) {
      const url = `${server.url}/api/${leftover}`;
      expect((await fetch(url)).status, `GET ${leftover}`).toBe(404);
      expect((await fetch(url, { method: 'HEAD' })).status).toBe(404);
      expect((await fetch(`${url}.json`)).status).toBe(404);
      expect((await fetch(`${url}/`)).status).toBe(404);
      expect((await fetch(url, { method: 'PATCH', body: '{"a":1}', headers: { 'content-type': 'application/json' } })).status).toBe(404);
      expect((await fetch(url, { method: 'DELETE' })).status).toBe(404);
      expect((await fetch(url, { method: 'PUT', body: '{"a":1}', headers: { 'content-type': 'application/json' } })).status).toBe(400);
      expect((await fetch(`${server.url}/api/${leftover}/x`, { method: 'POST', body: '{"a":1}', headers: { 'content-type': 'application/json' } })).status).toBe(400);
    }
    // The folder listing that the lookup's extension fallback reads, and the driver's own methods.
    expect((await vfs.readdir('')).map((e) => e.name)).toEqual(['users.json']);
    expect(await vfs.stat(live)).toBeNull();
    await expect(vfs.read(live)).rejects.toSatisfy((e: unknown) => isVfsError(e, 'ENOENT'));
    expect(await vfs.remove(live)).toBe(false);
    await expect(vfs.write(live, 'x')).rejects.toSatisfy((e: unknown) => isVfsError(e, 'EINVAL'));
    expect((await fetch(`${server.url}/api/users`)).status).toBe(200);
    // Nothing was written or removed by any of those requests; the dead writer's file is swept.
    await vfs.swept;
    expect((await readdir(dir)).sort()).toEqual([live, 'users.json']);
  });

  it("the driver removes stale temp files of its own naming at start-up, never a live writer's", async () => {
    const dir = await makeTempDir();
    await crashMidWrite(dir); // its writer is dead
    const sub = join(dir, 'users');
    await mkdir(sub);
    const mine = `.mockyard-tmp-${process.pid}-424242`; // this process: alive
    const oldLive = '.mockyard-tmp-1-7'; // pid 1 is alive, but the file is hours old: stale
    const youngLive = '.mockyard-tmp-1-8'; // pid 1, fresh: a live writer's, kept
    const notOurs = '.mockyard-tmp-notes.txt'; // not our naming: kept (and still hidden)
    for (const n of [mine, oldLive, youngLive, notOurs]) await writeFile(join(sub, n), 'x');
    const old = (Date.now() - STALE_TEMP_MS - 60_000) / 1000;
    await utimes(join(sub, oldLive), old, old);
    const vfs = diskFs(dir);
    expect(await vfs.swept).toBe(2);
    expect(await readdir(dir)).toEqual(['users']);
    expect((await readdir(sub)).sort()).toEqual([mine, notOurs, youngLive].sort());
    expect(await vfs.readdir('users')).toEqual([]);
  });
});
