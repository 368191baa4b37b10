// @vitest-environment node
/**
 * interceptFetch under Node (`mockyard/test`'s `node` condition, src/test/index.node.ts) answers
 * clients on node:http / node:https as it answers fetch: the real axios (its Node adapter), got
 * and node-fetch v2, and plain http.request. What no engine answers is refused with
 * `onUnhandled: 'error'` (nothing reaches the network: a real server counts its requests) or
 * sent on with `'bypass'`; `restore()` gives the network back.
 */
import { createServer, get as httpGet, type Server } from 'node:http';
import axios from 'axios';
import got from 'got';
import nodeFetch from 'node-fetch';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createMockApi } from '../../src/engine/create-mock-api.js';
import { interceptFetch } from '../../src/test/index.node.js';
import type { FetchInterception } from '../../src/test/intercept-fetch.js';
import { memoryFs } from '../../src/vfs/memory.js';

const fs = memoryFs({ 'todos.json': [{ id: 1, title: 'write tests' }] });
const api = createMockApi({ endpointPrefix: '/api', fs, logLevel: 'silent' });
let real: Server;
let realUrl: string;
let realHits = 0;
let mocked: FetchInterception | undefined;

beforeAll(async () => {
  real = createServer((_req, res) => {
    realHits++;
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"from":"network"}');
  });
  await new Promise<void>((resolve) => real.listen(0, '127.0.0.1', resolve));
  realUrl = `http://127.0.0.1:${(real.address() as { port: number }).port}`;
});
afterEach(async () => {
  mocked?.restore();
  mocked = undefined;
  await fs.reset();
  realHits = 0;
  vi.restoreAllMocks();
});
afterAll(async () => {
  await api.close();
  await new Promise((resolve) => real.close(resolve));
});

describe('answers node:http clients from the engines', () => {
  it('axios (Node adapter): GET and a JSON PUT', async () => {
    mocked = interceptFetch(api);
    const res = await axios.get('http://localhost/api/todos', { adapter: 'http' });
    expect(res.status).toBe(200);
    expect(res.data).toEqual([{ id: 1, title: 'write tests' }]);
    expect(res.headers['x-total-count']).toBe('1');
    const written = await axios.put('http://localhost/api/todos', [{ id: 1, title: 'write tests' }, { id: 2, title: 'ship' }], { adapter: 'http' });
    expect(written.status).toBe(200);
    expect((await axios.get('http://localhost/api/todos', { adapter: 'http' })).data).toHaveLength(2);
    expect(mocked.requests.map((r) => `${r.method} ${new URL(r.url).pathname}`)).toEqual(['GET /api/todos', 'PUT /api/todos', 'GET /api/todos']);
    expect(await mocked.requests[1]!.json()).toEqual([{ id: 1, title: 'write tests' }, { id: 2, title: 'ship' }]);
  });

  it('got: JSON and a 404 from the engines', async () => {
    mocked = interceptFetch(api);
    expect(await got('http://localhost/api/todos').json()).toEqual([{ id: 1, title: 'write tests' }]);
    const missing = await got('http://localhost/api/nothing', { throwHttpErrors: false, retry: { limit: 0 } });
    expect(missing.statusCode).toBe(404);
    expect(JSON.parse(missing.body)).toMatchObject({ status: 404, error: 'NOT_FOUND' });
  });

  it('node-fetch v2 and plain http.get', async () => {
    mocked = interceptFetch(api);
    const res = await nodeFetch('http://localhost/api/todos');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual([{ id: 1, title: 'write tests' }]);
    const body = await new Promise<string>((resolve, reject) => {
      httpGet('http://localhost/api/todos', (r) => {
        let text = '';
        r.setEncoding('utf8');
        r.on('data', (c: string) => (text += c));
        r.on('end', () => resolve(text));
      }).on('error', reject);
    });
    expect(JSON.parse(body)).toEqual([{ id: 1, title: 'write tests' }]); // `import { get } from 'node:http'` too
  });
});

describe('what no engine answers', () => {
  it("onUnhandled: 'error' (default) refuses it: nothing reaches the network", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    mocked = interceptFetch(api);
    await expect(axios.get(`${realUrl}/elsewhere`, { adapter: 'http' })).rejects.toThrow(/mockyard interceptFetch: no engine answers GET http:\/\/127\.0\.0\.1:\d+\/elsewhere \(onUnhandled: 'error'\)/);
    await expect(got(`${realUrl}/elsewhere`, { retry: { limit: 0 } })).rejects.toThrow(/no engine answers GET/);
    await expect(nodeFetch(`${realUrl}/elsewhere`)).rejects.toThrow(/no engine answers GET/);
    await expect(axios.get('http://localhost/not-under-the-prefix', { adapter: 'http' })).rejects.toThrow(/no engine answers GET http:\/\/localhost\/not-under-the-prefix/);
    expect(realHits).toBe(0);
  });

  it("onUnhandled: 'bypass' sends it to the network; restore() stops intercepting", async () => {
    mocked = interceptFetch(api, { onUnhandled: 'bypass' });
    expect((await axios.get(`${realUrl}/elsewhere`, { adapter: 'http' })).data).toEqual({ from: 'network' });
    expect((await axios.get('http://localhost/api/todos', { adapter: 'http' })).data).toHaveLength(1);
    mocked.restore();
    expect((await nodeFetch(`${realUrl}/again`)).status).toBe(200);
    expect(realHits).toBe(2);
  });

  it('http: false leaves node:http alone', async () => {
    mocked = interceptFetch(api, { http: false, onUnhandled: 'error' });
    expect((await axios.get(`${realUrl}/x`, { adapter: 'http' })).data).toEqual({ from: 'network' });
    expect(realHits).toBe(1);
  });
});
