/**
 * Query variants (src/engine/file-cache/query-variant.ts): a request whose exact query has a
 * `<name>@<query>.<ext>` file is answered from it, before the plain file's pagination and
 * filters. Recorded from a real upstream, then replayed by plain serving from disk.
 */
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createNodeMockApi as createMockApi } from '../../src/node/engines.js'; // the `mockyard` entry under Node: fsDir on disk
import { memoryFs } from '../../src/vfs/memory.js';
import { closeServers, startServer } from '../helpers/server.js';
import { makeTempDir, removeTempDirs } from '../helpers/temp-dir.js';
import { closeUpstreams, startUpstream } from '../helpers/upstream.js';

afterEach(async () => {
  await closeServers();
  await closeUpstreams();
  await removeTempDirs();
});

const ALL = Array.from({ length: 30 }, (_, i) => ({ id: i + 1 }));
const pagination = { GET: { type: 'query-param' as const, limit: 'limit', skip: 'skip' } };

describe('query variants', () => {
  it('recorded answers to queries are served for that exact query (any parameter order); other queries are not recorded (404), unless the files are hand-written', async () => {
    const upstream = await startUpstream((req, res) => {
      const url = new URL(req.url!, 'http://x');
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(url.search ? { from: 'upstream', query: url.search } : ALL));
    });
    const dir = join(await makeTempDir(), 'mocks');
    await mkdir(dir, { recursive: true });
    const recording = createMockApi({ endpointPrefix: '/api', fsDir: dir, logLevel: 'silent', proxy: { target: upstream.url, record: { serveFiles: false } } });
    const rec = await startServer({ mock: recording });
    await (await fetch(`${rec.url}/api/users`)).arrayBuffer();
    await (await fetch(`${rec.url}/api/users?skip=5&limit=2`)).arrayBuffer();
    await recording.recorder!.settled();
    expect((await readdir(dir)).sort()).toEqual(['users.json', 'users@limit=2&skip=5.json', 'users@recorded.json']);
    await closeServers();
    await upstream.close();

    const server = await startServer({ mock: { endpointPrefix: '/api', fsDir: dir, logLevel: 'silent', pagination } });
    // The recorded variant, whatever the parameter order: the upstream's answer, not a page of users.json.
    for (const q of ['?skip=5&limit=2', '?limit=2&skip=5']) {
      const r = await fetch(`${server.url}/api/users${q}`);
      expect(r.status).toBe(200);
      expect(await r.json()).toEqual({ from: 'upstream', query: '?skip=5&limit=2' });
    }
    const head = await fetch(`${server.url}/api/users?limit=2&skip=5`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(Number(head.headers.get('content-length'))).toBeGreaterThan(0);
    // Another query was not recorded: never another variant's answer (docs/proxy.md).
    const other = await fetch(`${server.url}/api/users?skip=1&limit=2`);
    expect(other.status).toBe(404);
    expect(((await other.json()) as { recorded: string[] }).recorded).toEqual(['GET /api/users?limit=2&skip=5', 'GET /api/users']); // nearest first: limit=2 in common
    expect(await (await fetch(`${server.url}/api/users`)).json()).toEqual(ALL);
    // Without the recording, the files are plain mocks: another query is a page of users.json.
    await rm(join(dir, 'users@recorded.json'));
    await expect.poll(async () => (await fetch(`${server.url}/api/users?skip=1&limit=2`)).status).toBe(200);
    expect(await (await fetch(`${server.url}/api/users?skip=1&limit=2`)).json()).toEqual([{ id: 2 }, { id: 3 }]);
  });

  it('variants of folder indexes and of names with an extension; a variant added later is served', async () => {
    const fs = memoryFs({
      'index.json': { root: true },
      'index@v=2.json': { root: 'v2' },
      'logo.png': 'plain',
      'logo@size=small.png': 'small',
      'users.json': ALL,
    });
    const api = createMockApi({ endpointPrefix: '/api', fs, logLevel: 'silent', pagination });
    const get = async (path: string) => {
      const r = await api.handle(new Request(`http://mock.local/api${path}`));
      return r!.text();
    };
    expect(JSON.parse(await get('/?v=2'))).toEqual({ root: 'v2' });
    expect(JSON.parse(await get('/?v=3'))).toEqual({ root: true });
    expect(await get('/logo.png?size=small')).toBe('small');
    expect(await get('/logo.png?size=big')).toBe('plain');
    // A miss is remembered, but a variant written afterwards (change event) is found.
    expect(JSON.parse(await get('/users?limit=1&skip=0'))).toEqual([{ id: 1 }]);
    await fs.write('/users@limit=1&skip=0.json', JSON.stringify({ variant: true }));
    expect(JSON.parse(await get('/users?limit=1&skip=0'))).toEqual({ variant: true });
    // The synchronous path (handleCached) agrees once the variant is cached.
    const cached = api.handleCached(new Request('http://mock.local/api/users?skip=0&limit=1'));
    expect(cached && JSON.parse(await cached.text())).toEqual({ variant: true });
    await api.close();
  });

  it('on disk a variant file needs no restart', async () => {
    const dir = join(await makeTempDir(), 'mocks');
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'items.json'), JSON.stringify(ALL));
    const server = await startServer({ mock: { endpointPrefix: '/api', fsDir: dir, logLevel: 'silent', pagination } });
    await writeFile(join(dir, 'items@limit=3.json'), JSON.stringify(['variant']));
    expect(await (await fetch(`${server.url}/api/items?limit=3`)).json()).toEqual(['variant']);
  });
});
