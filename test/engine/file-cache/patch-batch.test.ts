import { describe, expect, it } from 'vitest';
import { KeyedQueue } from '../../../src/core/keyed-queue.js';
import { createLogger } from '../../../src/core/logger.js';
import { FileCache } from '../../../src/engine/file-cache/file-cache.js';
import type { FsEnv } from '../../../src/engine/file-cache/fs-call.js';
import { enqueuePatch, runExclusive } from '../../../src/engine/file-cache/patch-batch.js';
import { memoryFs } from '../../../src/vfs/memory.js';
import type { SeedTree } from '../../../src/vfs/seed.js';

function env(tree: SeedTree) {
  const vfs = memoryFs(tree);
  let writes = 0;
  const counted = Object.create(vfs) as typeof vfs;
  counted.write = async (p, d) => {
    writes++;
    return vfs.write(p, d);
  };
  const e: FsEnv = { name: 'files', vfs: counted, fsDir: '', cache: new FileCache(counted, ''), queue: new KeyedQueue(), bodyLimit: 1e6, maxJsonDepth: 256, logger: createLogger('silent') };
  return { e, vfs, writes: () => writes };
}
const read = async (vfs: ReturnType<typeof memoryFs>, p: string) => JSON.parse(new TextDecoder().decode(await vfs.read(p)));

describe('PATCH group commit', () => {
  it('patches queued together are written once, each answered with its own state', async () => {
    const { e, vfs, writes } = env({ 'a.json': [] });
    const results = await Promise.all([1, 2, 3, 4].map((v) => enqueuePatch(e, 'a.json', 'json-patch', [{ op: 'add', path: '/-', value: v }])));
    expect(results.map((b) => JSON.parse(new TextDecoder().decode(b)))).toEqual([[1], [1, 2], [1, 2, 3], [1, 2, 3, 4]]);
    expect(await read(vfs, 'a.json')).toEqual([1, 2, 3, 4]);
    expect(writes()).toBe(1);
  });

  it('another write closes the open batch: a later PATCH applies after it', async () => {
    const { e, vfs } = env({ 'a.json': { v: 0 } });
    const p1 = enqueuePatch(e, 'a.json', 'merge', { first: 1 });
    const put = runExclusive(e, 'a.json', () => e.cache.write('a.json', new TextEncoder().encode('{"replaced":true}'), true));
    const p2 = enqueuePatch(e, 'a.json', 'merge', { second: 2 });
    await Promise.all([p1, put, p2]);
    expect(await read(vfs, 'a.json')).toEqual({ replaced: true, second: 2 });
  });

  it('a failing patch fails alone and leaves no trace', async () => {
    const { e, vfs } = env({ 'a.json': { n: 1 } });
    const ok1 = enqueuePatch(e, 'a.json', 'json-patch', [{ op: 'replace', path: '/n', value: 2 }]);
    const bad = enqueuePatch(e, 'a.json', 'json-patch', [{ op: 'add', path: '/x', value: 1 }, { op: 'remove', path: '/missing' }]);
    const ok2 = enqueuePatch(e, 'a.json', 'merge', { m: true });
    await expect(bad).rejects.toMatchObject({ status: 409 });
    await Promise.all([ok1, ok2]);
    expect(await read(vfs, 'a.json')).toEqual({ n: 2, m: true });
  });

  it('a file removed before the batch runs → every patch gets 404', async () => {
    const { e, vfs } = env({ 'a.json': {} });
    const rm = runExclusive(e, 'a.json', () => vfs.remove('a.json'));
    const ps = [enqueuePatch(e, 'a.json', 'merge', { a: 1 }), enqueuePatch(e, 'a.json', 'merge', { b: 1 })];
    await rm;
    for (const p of ps) await expect(p).rejects.toMatchObject({ status: 404 });
  });
});
