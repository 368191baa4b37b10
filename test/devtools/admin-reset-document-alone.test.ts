/**
 * *Reset everything* (`POST reset`) with no mocks folder at all (the OpenAPI document alone:
 * `mockyard openapi.yaml`, `fsDir: null`): there is no file to restore, so it brings the OpenAPI
 * backend's state back to its seed and empties the journal. Before, it was refused 501 ("a disk
 * folder is yours: use git") while the Data tab lists and edits that state. A real server on
 * 127.0.0.1 and the built CLI, real fetch.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, it } from 'vitest';
import { closeServers, startServer } from '../helpers/server.js';
import { memoryFs } from '../../src/vfs/memory.js';

const children: ChildProcess[] = [];
afterEach(async () => {
  await closeServers();
  for (const c of children.splice(0)) c.kill();
});

const A = '/_mockyard/api';
const SECURED = fileURLToPath(new URL('../fixtures/openapi/secured-writes-3.0.yaml', import.meta.url));
const CLI = fileURLToPath(new URL('../../dist/node/cli.js', import.meta.url));
const KEY = { 'x-api-key': 'k' };

async function call(url: string, method = 'GET', body?: unknown, headers: Record<string, string> = {}) {
  const r = await fetch(url, { method, headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await r.text();
  return { status: r.status, json: text ? JSON.parse(text) : undefined };
}

async function editThenReset(base: string, prefix: string): Promise<void> {
  const keys = encodeURIComponent('/keys');
  const [key] = (await call(`${base}${A}/data/${keys}?limit=1`)).json.items;
  expect((await call(`${base}${A}/data/${keys}/${key.id}`, 'PATCH', { name: 'edited' })).status).toBe(200);
  expect((await call(`${base}${prefix}/keys/${key.id}`, 'GET', undefined, KEY)).json.name).toBe('edited');
  const reset = await call(`${base}${A}/reset`, 'POST');
  expect(reset.status, JSON.stringify(reset.json)).toBe(200);
  expect((await call(`${base}${prefix}/keys/${key.id}`, 'GET', undefined, KEY)).json).toEqual(key);
  expect((await call(`${base}${A}/requests`)).json.entries.filter((e: { url: string }) => e.url.includes('/keys/'))).toHaveLength(1); // the journal emptied: only the GET after
}

it('serve with fsDir: null: Reset everything resets the OpenAPI backend\u2019s state', async () => {
  const s = await startServer({ mock: { endpointPrefix: '/api', logLevel: 'silent', fsDir: null, openapi: { document: SECURED, count: { '*': 3 } } } });
  await editThenReset(s.url, '/api');
});

it('the CLI with the document alone: Reset everything resets the OpenAPI backend\u2019s state', async () => {
  const child = spawn(process.execPath, [CLI, SECURED, '--port', '0', '--quiet'], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`the CLI exited (${code}): ${out}`)));
  });
  await editThenReset(url, '');
});

it('fsDir: null over a memory filesystem: Reset everything still restores its seed', async () => {
  const fs = memoryFs({ 'notes.txt': 'seed' });
  const s = await startServer({ mock: { endpointPrefix: '/api', logLevel: 'silent', fs, fsDir: null, openapi: { document: SECURED, count: { '*': 3 } } } });
  await fs.write('notes.txt', 'changed');
  await editThenReset(s.url, '/api');
  expect(new TextDecoder().decode(await fs.read('notes.txt'))).toBe('seed');
});
