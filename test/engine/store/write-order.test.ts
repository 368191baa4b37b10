/**
 * One order per file for every writer: a store write (a collection POST through the collections
 * layer, a GraphQL mutation) that arrives after a file-mode PUT or DELETE of the same file was
 * queued applies after it, never in a batch queued before it. Staged through a real server on
 * 127.0.0.1 over a real folder on disk: the first write of the file is held, so the queue backs up
 * while the test sends the next request only once the previous one is in the file's queue.
 */
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { KeyedQueue } from '../../../src/core/keyed-queue.js';
import { createMockApi, type MockApi } from '../../../src/engine/create-mock-api.js';
import { diskFs } from '../../../src/vfs/disk.js';
import type { Vfs } from '../../../src/vfs/types.js';
import { closeServers, startServer } from '../../helpers/server.js';

/** Store writes handed to a file's queue, counted (the store's way in; behaviour unchanged). */
const handed = vi.hoisted(() => ({ n: 0 }));
vi.mock('../../../src/engine/store/writes.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../../src/engine/store/writes.js')>();
  return {
    ...real,
    enqueueMutation: (...args: Parameters<typeof real.enqueueMutation>) => {
      handed.n++;
      return real.enqueueMutation(...args);
    },
  };
});

const apis: MockApi[] = [];
const dirs: string[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  await closeServers();
  await Promise.all(apis.splice(0).map((a) => a.close()));
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A disk folder whose first write of `todos.json` waits for `release()`. */
function heldDisk(files: Record<string, unknown>) {
  const dir = mkdtempSync(join(tmpdir(), 'mockyard-write-order-'));
  dirs.push(dir);
  const disk = diskFs(dir);
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  let held = false;
  let writing!: () => void;
  const firstWrite = new Promise<void>((r) => (writing = r));
  const fs: Vfs = Object.create(disk, {
    write: {
      value: async (path: string, data: Uint8Array | string) => {
        if (path === 'todos.json' && !held) {
          held = true;
          writing();
          await gate;
        }
        return disk.write(path, data);
      },
    },
  });
  return { dir, fs, release, firstWrite, file: () => join(dir, 'todos.json') };
}

async function until(what: string, ok: () => boolean): Promise<void> {
  const start = Date.now();
  while (!ok()) {
    if (Date.now() - start > 10_000) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 2));
  }
}

async function setup(files: Record<string, unknown>, preset: 'json-server' | undefined = 'json-server') {
  const disk = heldDisk(files);
  const { writeFileSync } = await import('node:fs');
  for (const [name, value] of Object.entries(files)) writeFileSync(join(disk.dir, name), `${JSON.stringify(value, null, 2)}\n`);
  const api = createMockApi({ fs: disk.fs, endpointPrefix: '/api', ...(preset ? { preset } : {}), graphql: true, logLevel: 'silent' });
  apis.push(api);
  const base = `${(await startServer({ mock: api })).url}/api`;
  // Tasks put in the queue of todos.json, counted.
  let queued = 0;
  const run = KeyedQueue.prototype.run;
  vi.spyOn(KeyedQueue.prototype, 'run').mockImplementation(function (this: KeyedQueue, key: string, task: () => unknown) {
    if (key === 'todos.json') queued++;
    return run.call(this, key, task as () => Promise<unknown>);
  } as typeof run);
  const post = async (title: string) => {
    const before = handed.n;
    const answer = fetch(`${base}/todos`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ title }) });
    await until(`POST ${title} to reach the store`, () => handed.n > before);
    return { answer }; // not awaited: it waits for the held write
  };
  const exclusive = async (method: 'PUT' | 'DELETE' | 'PATCH', body?: unknown, type = 'application/json') => {
    const before = queued;
    const answer = fetch(`${base}/todos`, { method, ...(body === undefined ? {} : { headers: { 'content-type': type }, body: JSON.stringify(body) }) });
    await until(`${method} to be queued`, () => queued > before);
    return { answer };
  };
  const mutation = async (query: string) => {
    const before = handed.n;
    const answer = fetch(`${base}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) });
    await until('the mutation to reach the store', () => handed.n > before);
    return { answer };
  };
  return { ...disk, base, post, exclusive, mutation };
}

const onDisk = (file: string) => (existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined);

describe('store writes keep the file\u2019s one order', () => {
  it('a collection POST after a queued PUT of the file applies after the PUT (answer and file)', async () => {
    const s = await setup({ 'todos.json': [{ id: 1, title: 'one' }] });
    const x1 = await s.post('x1');
    await s.firstWrite; // x1's batch is storing: the queue is busy from here on
    const x2 = await s.post('x2');
    const put = await s.exclusive('PUT', [{ id: 9, title: 'nine' }]);
    const x3 = await s.post('x3');
    s.release();
    const [a1, a2, ap, a3] = await Promise.all([x1, x2, put, x3].map((x) => x.answer));
    expect([a1.status, a2.status, ap.status, a3.status]).toEqual([201, 201, 200, 201]);
    const created = await a3.json();
    expect(created).toMatchObject({ title: 'x3' });
    // x1 and x2 came before the PUT and were replaced by it; x3 came after and is kept.
    expect(onDisk(s.file())).toEqual([{ id: 9, title: 'nine' }, created]);
    expect(await (await fetch(`${s.base}/todos`)).json()).toEqual([{ id: 9, title: 'nine' }, created]);
  });

  it('a collection POST after a queued DELETE of the file is refused, and the file stays deleted', async () => {
    const s = await setup({ 'todos.json': [{ id: 1, title: 'one' }] });
    const x1 = await s.post('x1');
    await s.firstWrite;
    const x2 = await s.post('x2');
    const del = await s.exclusive('DELETE');
    const x3 = await s.post('x3');
    s.release();
    const [a1, a2, ad, a3] = await Promise.all([x1, x2, del, x3].map((x) => x.answer));
    expect([a1.status, a2.status, ad.status, a3.status]).toEqual([201, 201, 204, 404]);
    expect(onDisk(s.file())).toBeUndefined();
  });

  it('a GraphQL mutation after a queued PUT of the file applies after the PUT', async () => {
    const s = await setup({ 'todos.json': [{ id: 1, title: 'one' }] });
    const x1 = await s.post('x1');
    await s.firstWrite;
    const x2 = await s.post('x2');
    const put = await s.exclusive('PUT', [{ id: 9, title: 'nine' }]);
    const g = await s.mutation('mutation { createTodo(title: "g") { id title } }');
    s.release();
    const [a1, a2, ap, ag] = await Promise.all([x1, x2, put, g].map((x) => x.answer));
    expect([a1.status, a2.status, ap.status, ag.status]).toEqual([201, 201, 200, 200]);
    const { data } = (await ag.json()) as { data: { createTodo: { id: string; title: string } } };
    // GraphQL's ID is a string; the file keeps the number the store gave (after the PUT's 9).
    expect(data.createTodo).toEqual({ id: '10', title: 'g' });
    expect(onDisk(s.file())).toEqual([{ id: 9, title: 'nine' }, { id: 10, title: 'g' }]);
  });

  it('a GraphQL mutation after a queued file-mode PATCH of the file applies after the PATCH', async () => {
    const s = await setup({ 'todos.json': [{ id: 1, title: 'one' }] }, undefined);
    const m = (title: string) => s.mutation(`mutation { createTodo(title: "${title}") { id } }`);
    const g1 = await m('g1');
    await s.firstWrite;
    const g2 = await m('g2');
    const patch = await s.exclusive('PATCH', [{ op: 'add', path: '/-', value: { id: 50, title: 'patched' } }], 'application/json-patch+json');
    const g3 = await m('g3');
    s.release();
    const answers = await Promise.all([g1, g2, patch, g3].map((x) => x.answer));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    expect(onDisk(s.file()).map((t: { title: string }) => t.title)).toEqual(['one', 'g1', 'g2', 'patched', 'g3']);
  });
});
