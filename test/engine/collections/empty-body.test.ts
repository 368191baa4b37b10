/**
 * One "has a body" rule (core/body.ts `carriesBody`: zero bytes is none) on every host: a DELETE of
 * a collection item sent with an empty body (`Content-Length: 0`, an empty chunked body, the empty
 * body msw forwards) deletes; a GET with an empty chunked body reads. A GET body with bytes is
 * still refused with the spec's 400 (a DELETE's is ignored under the preset, as json-server does). (The service-worker host: test/e2e/jsondb.e2e.ts.)
 */
import { setupServer } from 'msw/node';
import { afterEach, describe, expect, it } from 'vitest';
import { createMockApi, type MockApi } from '../../../src/engine/create-mock-api.js';
import { handlersFor } from '../../../src/msw/index.js';
import { interceptFetch } from '../../../src/test/intercept-fetch.js';
import { memoryFs } from '../../../src/vfs/memory.js';
import { closeServers, rawRequest, startServer } from '../../helpers/server.js';

const apis: MockApi[] = [];
afterEach(async () => {
  await closeServers();
  await Promise.all(apis.splice(0).map((a) => a.close()));
});

function todosApi(): MockApi {
  const api = createMockApi({
    endpointPrefix: '/api',
    fs: memoryFs({ 'todos.json': JSON.stringify([{ id: 1, title: 'a' }, { id: 2, title: 'b' }, { id: 3, title: 'c' }]), 'profile.json': '{"name":"x"}' }),
    preset: 'json-server',
    logLevel: 'silent',
  });
  apis.push(api);
  return api;
}

describe('node host (a real server)', () => {
  it('DELETE with Content-Length: 0, with an empty chunked body, and with bytes (ignored, as json-server) deletes the item', async () => {
    const server = await startServer({ engines: [todosApi()] });
    const zero = await rawRequest(server.url, { method: 'DELETE', path: '/api/todos/1', headers: { 'content-length': '0' } });
    expect(zero.status).toBe(200);
    const chunked = await rawRequest(server.url, { method: 'DELETE', path: '/api/todos/2', headers: { 'transfer-encoding': 'chunked' }, body: [] });
    expect(chunked.status).toBe(200);
    // json-server ignores a DELETE's body (axios's `delete(url, { data: {} })`): so does the preset.
    const withBytes = await rawRequest(server.url, { method: 'DELETE', path: '/api/todos/3', headers: { 'content-type': 'application/json', 'content-length': 2 }, body: '{}' });
    expect(withBytes.status).toBe(200);
    expect(JSON.parse((await rawRequest(server.url, { path: '/api/todos' })).body.toString())).toEqual([]);
  });

  it('GET with an empty chunked body reads (an item and a file); with bytes it is the spec\'s 400', async () => {
    const server = await startServer({ engines: [todosApi()] });
    const item = await rawRequest(server.url, { path: '/api/todos/2', headers: { 'transfer-encoding': 'chunked' }, body: [] });
    expect(item.status).toBe(200);
    const file = await rawRequest(server.url, { path: '/api/profile', headers: { 'transfer-encoding': 'chunked' }, body: [] });
    expect(file.status).toBe(200);
    const bytes = await rawRequest(server.url, { path: '/api/todos/2', headers: { 'content-type': 'application/json', 'content-length': 2 }, body: '{}' });
    expect(bytes.status).toBe(400);
  });
});

describe('interceptFetch', () => {
  it('DELETE with an empty body deletes the item', async () => {
    const api = todosApi();
    const interception = interceptFetch(api, { baseUrl: 'http://app.test' });
    try {
      const res = await fetch('http://app.test/api/todos/1', { method: 'DELETE', body: '' });
      expect(res.status).toBe(200);
      const zero = await fetch('http://app.test/api/todos/2', { method: 'DELETE', body: new Uint8Array(0), headers: { 'content-length': '0' } });
      expect(zero.status).toBe(200);
      expect((await fetch('http://app.test/api/todos/1')).status).toBe(404);
    } finally {
      interception.restore();
    }
  });
});

describe('msw handlersFor (setupServer)', () => {
  it('DELETE with an empty body deletes the item', async () => {
    const api = todosApi();
    const server = setupServer(...handlersFor(api, { baseUrl: 'http://app.test' }));
    server.listen({ onUnhandledRequest: 'error' });
    try {
      const res = await fetch('http://app.test/api/todos/1', { method: 'DELETE', body: '' });
      expect(res.status).toBe(200);
      expect((await fetch('http://app.test/api/todos/1')).status).toBe(404);
    } finally {
      server.close();
    }
  });
});

describe('the answering layer is recorded for errors too (observers, the devtools journal)', () => {
  it('a 400 thrown by the collections layer is answered by collections', async () => {
    const api = todosApi();
    const seen: Array<string | undefined> = [];
    api.observe((x) => seen.push(x.answeredBy?.layer));
    const res = await api.handle(new Request('http://x/api/todos', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' }));
    expect(res!.status).toBe(400);
    expect(seen).toEqual(['collections']);
  });
});
