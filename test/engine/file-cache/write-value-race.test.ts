/**
 * The cache never keeps a value the Vfs no longer holds. On a db.json (jsonDbFs over a real folder
 * on disk), a store write hands its parsed value down (`FileCache.writeValue`); when the file is
 * edited outside while that write is on its way (the driver took the value, its call has not
 * returned), the edit wins in the driver (json-db.ts: an outside edit wins over writes waiting
 * for their rewrite), so the cache must not then store the written value over it. Through a real
 * server on 127.0.0.1; the only thing staged is when the driver's writeJson call returns.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMockApi, type MockApi } from '../../../src/engine/create-mock-api.js';
import { diskFs } from '../../../src/vfs/disk.js';
import { jsonDbFs, type JsonDbVfs } from '../../../src/vfs/json-db.js';
import { closeServers, startServer } from '../../helpers/server.js';

const apis: MockApi[] = [];
const dbs: JsonDbVfs[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await closeServers();
  await Promise.all(apis.splice(0).map((a) => a.close()));
  await Promise.all(dbs.splice(0).map((d) => d.close?.()));
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function until(what: string, ok: () => boolean): Promise<void> {
  const start = Date.now();
  while (!ok()) {
    if (Date.now() - start > 10_000) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('FileCache.writeValue and a change racing it', () => {
  it('an outside edit of db.json while a store write is on its way: GET serves what the file holds, not the written value', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mockyard-write-value-'));
    dirs.push(dir);
    const file = join(dir, 'db.json');
    writeFileSync(file, `${JSON.stringify({ todos: [{ id: 1, title: 'one' }] }, null, 2)}\n`);
    const db = jsonDbFs(diskFs(dir), 'db.json', { flushDelayMs: 5, recheckMs: 20, onWarning: () => undefined });
    dbs.push(db);
    let reports = 0;
    db.onChange(() => reports++);
    let hold = false;
    let taken = false;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    // The driver takes the value at once; its call returns only when the test says so.
    const fs: JsonDbVfs = Object.create(db, {
      writeJson: {
        value: async (path: string, value: unknown) => {
          await db.writeJson!(path, value);
          if (hold) {
            taken = true;
            await gate;
          }
        },
      },
    });
    const api = createMockApi({ fs, endpointPrefix: '/api', preset: 'json-server', logLevel: 'silent' });
    apis.push(api);
    const base = `${(await startServer({ mock: api })).url}/api`;
    expect(await (await fetch(`${base}/todos`)).json()).toEqual([{ id: 1, title: 'one' }]);

    hold = true;
    const post = fetch(`${base}/todos`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ title: 'x' }) });
    await until('the store write to reach the driver', () => taken);
    await db.flush(); // the written value is in the file: the edit below comes after it
    const seen = reports;
    writeFileSync(file, `${JSON.stringify({ todos: [{ id: 1, title: 'edited' }] }, null, 2)}\n`);
    await until('the driver to see the edit', () => reports > seen);
    release();
    expect((await post).status).toBe(201);

    await db.flush();
    const onDisk = JSON.parse(readFileSync(file, 'utf8')).todos;
    expect(onDisk).toEqual([{ id: 1, title: 'edited' }]);
    expect(await (await fetch(`${base}/todos`)).json()).toEqual(onDisk);
  });

  it('with nothing racing, the written value is what the cache serves (no read of the driver after the write)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mockyard-write-value-'));
    dirs.push(dir);
    writeFileSync(join(dir, 'db.json'), `${JSON.stringify({ todos: [{ id: 1, title: 'one' }] })}\n`);
    const db = jsonDbFs(diskFs(dir), 'db.json', { flushDelayMs: 5, onWarning: () => undefined });
    dbs.push(db);
    let reads = 0;
    const fs: JsonDbVfs = Object.create(db, {
      read: {
        value: (path: string) => {
          reads++;
          return db.read(path);
        },
      },
    });
    const api = createMockApi({ fs, endpointPrefix: '/api', preset: 'json-server', logLevel: 'silent' });
    apis.push(api);
    const base = `${(await startServer({ mock: api })).url}/api`;
    await (await fetch(`${base}/todos`)).json();
    const before = reads;
    for (const title of ['a', 'b', 'c']) {
      expect((await fetch(`${base}/todos`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ title }) })).status).toBe(201);
      expect(((await (await fetch(`${base}/todos`)).json()) as unknown[]).at(-1)).toMatchObject({ title });
    }
    expect(reads).toBe(before);
  });
});
