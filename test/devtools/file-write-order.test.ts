/**
 * The devtools' file edits (`PUT /_mockyard/api/files/…`) take their turn in the same per-file
 * queue as the mock API's own writes: a file replaced from the page while a collection POST is
 * being stored applies after that POST, never under it (before, the page's edit was answered
 * 200 and then overwritten by the POST's write). A real server on 127.0.0.1 over a real folder
 * on disk; the POST's write is held so the page's edit arrives while it is on its way.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { KeyedQueue } from '../../src/core/keyed-queue.js';
import { createMockApi, type MockApi } from '../../src/engine/create-mock-api.js';
import { diskFs } from '../../src/vfs/disk.js';
import type { Vfs } from '../../src/vfs/types.js';
import { closeServers, startServer } from '../helpers/server.js';

const A = '/_mockyard/api';
const apis: MockApi[] = [];
const dirs: string[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  await closeServers();
  await Promise.all(apis.splice(0).map((a) => a.close()));
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function until(what: string, ok: () => boolean): Promise<void> {
  const start = Date.now();
  while (!ok()) {
    if (Date.now() - start > 10_000) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 2));
  }
}

describe('devtools file edits and the mock API\u2019s writes share one order per file', () => {
  it('a file replaced from the page while a collection POST is being stored applies after it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mockyard-devtools-order-'));
    dirs.push(dir);
    const file = join(dir, 'todos.json');
    writeFileSync(file, `${JSON.stringify([{ id: 1, title: 'one' }], null, 2)}\n`);
    const disk = diskFs(dir);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let held = false;
    const fs: Vfs = Object.create(disk, {
      write: {
        value: async (path: string, data: Uint8Array | string) => {
          if (path === 'todos.json' && !held) {
            held = true;
            await gate;
          }
          return disk.write(path, data);
        },
      },
    });
    const api = createMockApi({ fs, endpointPrefix: '/api', preset: 'json-server', logLevel: 'silent' });
    apis.push(api);
    const server = await startServer({ mock: api });
    let queued = 0;
    const run = KeyedQueue.prototype.run;
    vi.spyOn(KeyedQueue.prototype, 'run').mockImplementation(function (this: KeyedQueue, key: string, task: () => unknown) {
      if (key === 'todos.json') queued++;
      return run.call(this, key, task as () => Promise<unknown>);
    } as typeof run);

    const post = fetch(`${server.url}/api/todos`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ title: 'x1' }) });
    await until('the POST to be storing', () => held);
    const before = queued;
    const edit = fetch(`${server.url}${A}/files/todos.json`, { method: 'PUT', headers: { 'content-type': 'application/json', 'if-match': '*', origin: server.url }, body: JSON.stringify([{ id: 7, title: 'seven' }]) });
    await until('the edit to be queued', () => queued > before);
    // Give the edit time to finish on its own (it did, in a queue of its own): it must not.
    const early = await Promise.race([edit.then(() => true), new Promise((r) => setTimeout(() => r(false), 1500))]);
    release();
    const [p, e] = await Promise.all([post, edit]);
    expect(existsSync(file) && JSON.parse(readFileSync(file, 'utf8'))).toEqual([{ id: 7, title: 'seven' }]);
    expect([p.status, e.status, early]).toEqual([201, 200, false]);
    expect(await (await fetch(`${server.url}/api/todos`)).json()).toEqual([{ id: 7, title: 'seven' }]);
  });
});
