/**
 * A session's singular objects (config.json holding `{ … }`), through a real node:http server on
 * a mocks folder on disk: `GET data?session=` lists them, and `files/config.json?session=` reads
 * and writes the session's own version (If-Match as for the shared file): requests with that
 * session see the edit, requests without it and the file on disk do not; a stale tag is 412; a
 * reset of the session brings the shared version back.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { closeServers, startServer } from '../helpers/server.js';
import { makeTempDir, removeTempDirs } from '../helpers/temp-dir.js';

afterEach(async () => {
  await closeServers();
  await removeTempDirs();
});

const A = '/_mockyard/api';
const CONFIG = { theme: 'dark', beta: false, limit: 10 };

async function call(url: string, method = 'GET', body?: unknown, headers: Record<string, string> = {}) {
  const r = await fetch(url, { method, headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await r.text();
  return { status: r.status, headers: r.headers, json: text ? JSON.parse(text) : undefined };
}

it("edits a session's own version of a singular object; the shared file and other requests are untouched", async () => {
  const dir = await makeTempDir();
  await writeFile(join(dir, 'config.json'), JSON.stringify(CONFIG));
  await writeFile(join(dir, 'todos.json'), JSON.stringify([{ id: 1, title: 'a' }]));
  const s = await startServer({ mock: { endpointPrefix: '/api', logLevel: 'silent', fsDir: dir } });
  const listed = await call(`${s.url}${A}/data?session=ann`);
  expect(listed.json).toMatchObject({ scope: { session: 'ann' }, objects: ['config'] });

  const read = await call(`${s.url}${A}/files/config.json?session=ann`);
  expect(read.status).toBe(200);
  expect(read.json).toEqual(CONFIG);
  const etag = read.headers.get('etag')!;
  const saved = await call(`${s.url}${A}/files/config.json?session=ann`, 'PUT', { ...CONFIG, limit: 99 }, { 'if-match': etag });
  expect(saved.status).toBe(200);
  expect((await call(`${s.url}/api/config`, 'GET', undefined, { 'x-mockyard-session': 'ann' })).json).toEqual({ ...CONFIG, limit: 99 });
  expect((await call(`${s.url}/api/config`)).json).toEqual(CONFIG);
  expect((await call(`${s.url}/api/config`, 'GET', undefined, { 'x-mockyard-session': 'bob' })).json).toEqual(CONFIG);
  expect(JSON.parse(await readFile(join(dir, 'config.json'), 'utf8'))).toEqual(CONFIG);
  expect((await call(`${s.url}${A}/files/config.json`)).json).toEqual(CONFIG);
  expect((await call(`${s.url}${A}/sessions/ann`)).json).toMatchObject({ id: 'ann', files: 1 });

  // The tag read before the save is stale now: 412, nothing written.
  expect((await call(`${s.url}${A}/files/config.json?session=ann`, 'PUT', { ...CONFIG, limit: 1 }, { 'if-match': etag })).status).toBe(412);
  expect((await call(`${s.url}${A}/files/config.json?session=ann`)).json.limit).toBe(99);
  // Not JSON: 400, as for the shared file.
  const bad = await fetch(`${s.url}${A}/files/config.json?session=ann`, { method: 'PUT', headers: { 'if-match': '*' }, body: '{ nope' });
  expect(bad.status).toBe(400);

  // A session reset drops its version: the shared one is read again.
  expect((await call(`${s.url}${A}/sessions/ann/reset`, 'POST')).status).toBe(200);
  expect((await call(`${s.url}${A}/files/config.json?session=ann`)).json).toEqual(CONFIG);
  expect((await call(`${s.url}/api/config`, 'GET', undefined, { 'x-mockyard-session': 'ann' })).json).toEqual(CONFIG);
});
