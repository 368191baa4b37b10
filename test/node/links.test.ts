/**
 * Symbolic links inside fsDir, through a real server on a real folder: anything whose real path
 * leaves the real fsDir is refused with 403 and the error shape, for every method, the lookup
 * fallbacks and rewrite targets; links that stay inside keep working. The collector's storage
 * folder follows the same rule. (The rule itself lives in src/vfs/disk.ts.)
 */
import { mkdir, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { MockApiOptions } from '../../src/engine/mock-api-options.js';
import { closeServers, startServer } from '../helpers/server.js';
import { makeTempDir, removeTempDirs } from '../helpers/temp-dir.js';

afterEach(async () => {
  await closeServers();
  await removeTempDirs();
});

const CANARY = '{"canary":"outside"}';

async function setup(extra: Partial<MockApiOptions> = {}) {
  const parent = await makeTempDir();
  const dir = join(parent, 'mocks');
  await mkdir(join(dir, 'users'), { recursive: true });
  await mkdir(join(parent, 'secret'));
  await writeFile(join(parent, 'secret', 'canary.json'), CANARY);
  await writeFile(join(parent, 'secret', 'notes.txt'), 'outside notes');
  await writeFile(join(dir, 'users', '1.json'), '{"id":1}');
  await writeFile(join(dir, 'users.json'), '[{"id":1}]');
  await symlink('../secret', join(dir, 'link'));
  await symlink('../secret/canary.json', join(dir, 'leak.json'));
  await symlink('../secret/notes.txt', join(dir, 'notes.txt'));
  await symlink('users', join(dir, 'people'));
  await symlink('users.json', join(dir, 'everyone.json'));
  const warnings: string[] = [];
  const logger = { debug() {}, info() {}, warn: (m: string) => warnings.push(m), error: (m: string) => warnings.push(m), log() {} };
  const server = await startServer({ mock: { endpointPrefix: '/api', fsDir: dir, logger, logLevel: 'warn', ...extra } });
  return { parent, dir, url: server.url, warnings };
}

async function outsideUntouched(parent: string) {
  expect((await readdir(join(parent, 'secret'))).sort()).toEqual(['canary.json', 'notes.txt']);
  expect(await readFile(join(parent, 'secret', 'canary.json'), 'utf8')).toBe(CANARY);
}

async function forbidden(res: Response, path: string, head = false) {
  expect(res.status, path).toBe(403);
  const text = await res.text();
  if (head) return expect(text).toBe('');
  expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
  const body = JSON.parse(text);
  expect(body).toMatchObject({ status: 403, error: 'FORBIDDEN', message: 'Forbidden', path });
  expect(text).not.toContain('outside'); // the canary's content
  expect(text).not.toContain('/tmp');
}

const json = (method: string, body: unknown): RequestInit => ({ method, body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });

describe('links leading outside fsDir → 403 for every method and lookup', () => {
  it('GET/HEAD through a folder link, a file link, and the .json and other-extension fallbacks', async () => {
    const { url, parent, warnings } = await setup();
    for (const path of ['/api/link/canary.json', '/api/link/canary', '/api/leak.json', '/api/leak', '/api/notes', '/api/notes.txt', '/api/link/', '/api/link']) {
      await forbidden(await fetch(url + path), path);
      await forbidden(await fetch(url + path, { method: 'HEAD' }), path, true);
    }
    expect(warnings.some((w) => w.includes('refused: Link leads outside the root: link/canary.json'))).toBe(true);
    expect(warnings.join('\n')).not.toContain(parent);
    await outsideUntouched(parent);
  });

  it('PUT, POST, PATCH, DELETE neither change nor create nor delete anything outside', async () => {
    const { url, parent } = await setup();
    const writes: Array<[string, RequestInit]> = [
      ['/api/link/canary.json', json('PUT', { pwned: 1 })],
      ['/api/link/x.json', json('PUT', { pwned: 1 })],
      ['/api/link/deeper/x.json', json('PUT', { pwned: 1 })],
      ['/api/leak.json', json('PUT', { pwned: 1 })],
      ['/api/link/new', json('POST', { pwned: 1 })],
      ['/api/link/canary', json('PATCH', { pwned: 1 })],
      ['/api/leak', json('PATCH', { pwned: 1 })],
      ['/api/link/canary.json', { method: 'DELETE' }],
      ['/api/leak.json', { method: 'DELETE' }],
      ['/api/link', { method: 'DELETE' }],
    ];
    for (const [path, init] of writes) await forbidden(await fetch(url + path, init), path);
    await outsideUntouched(parent);
  });

  it('a rewrite target through a link is refused the same way', async () => {
    const { url, parent } = await setup({
      handlers: [{ pattern: '/peek/{name}', method: '*', handle: 'FS', rewrite: (_p, req) => `/link/${req.params.name}` }],
    });
    await forbidden(await fetch(`${url}/api/peek/canary`), '/api/peek/canary');
    await forbidden(await fetch(`${url}/api/peek/canary`, json('PATCH', { pwned: 1 })), '/api/peek/canary');
    await outsideUntouched(parent);
  });

  it('a cached file replaced by a link leading outside is refused from the next request on', async () => {
    const { url, dir } = await setup();
    expect(await (await fetch(`${url}/api/users/1`)).json()).toEqual({ id: 1 });
    expect(await (await fetch(`${url}/api/users/1`)).json()).toEqual({ id: 1 }); // now cached
    await rm(join(dir, 'users', '1.json'));
    await symlink('../../secret/canary.json', join(dir, 'users', '1.json'));
    // The folder watch reports the change; the cache re-checks (one stat, with the link rule).
    // Until the report arrives the old bytes may still be served, never the outside file.
    for (;;) {
      const res = await fetch(`${url}/api/users/1`);
      const text = await res.text();
      expect(text).not.toContain('outside');
      if (res.status === 403) break;
      expect(JSON.parse(text)).toEqual({ id: 1 });
      await new Promise((r) => setImmediate(r));
    }
  });
});

describe('links that stay inside fsDir keep working', () => {
  it('GET, PUT and PATCH through a folder link and a file link reach the target', async () => {
    const { url, dir } = await setup();
    expect(await (await fetch(`${url}/api/people/1`)).json()).toEqual({ id: 1 });
    expect(await (await fetch(`${url}/api/everyone`)).json()).toEqual([{ id: 1 }]);
    expect((await fetch(`${url}/api/people/2`, json('PUT', { id: 2 }))).status).toBe(201);
    expect(await readFile(join(dir, 'users', '2.json'), 'utf8')).toBe('{"id":2}');
    expect((await fetch(`${url}/api/people/1`, json('PATCH', { name: 'Ada' }))).status).toBe(200);
    expect(JSON.parse(await readFile(join(dir, 'users', '1.json'), 'utf8'))).toEqual({ id: 1, name: 'Ada' });
  });
});

describe("the collector's storage folder", () => {
  it('never reads or appends through a segment link leading outside', async () => {
    const parent = await makeTempDir();
    const storage = join(parent, 'events');
    await mkdir(storage);
    await mkdir(join(parent, 'secret'));
    const outsideSegment = '{"id":"x","timestamp":"2026-03-01T10:00:00.000Z","secret":"outside"}\n';
    await writeFile(join(parent, 'secret', 'log.jsonl'), outsideSegment);
    await symlink('../secret/log.jsonl', join(storage, '2026-03-01T10.jsonl'));
    const errors: string[] = [];
    const logger = { debug() {}, info() {}, warn: (m: string) => errors.push(m), error: (m: string) => errors.push(m), log() {} };
    const server = await startServer({ tracker: { appId: 'demo', storageDir: storage, logger, logLevel: 'warn' } });
    const read = await fetch(`${server.url}/_tracker?since=1970-01-01T00:00:00Z&until=9999-12-31T23:59:59Z`);
    expect(read.status).toBe(503);
    expect(await read.text()).not.toContain('outside');
    const post = await fetch(`${server.url}/_tracker/events`, json('POST', { type: 'ingest', events: [{ timestamp: '2026-03-01T10:30:00.000Z', n: 1 }] }));
    expect(post.status).toBe(503);
    expect(await readFile(join(parent, 'secret', 'log.jsonl'), 'utf8')).toBe(outsideSegment);
    expect(errors.some((e) => e.includes('Link leads outside the root: 2026-03-01T10.jsonl'))).toBe(true);
  });
});
