/**
 * `mock.openapi: { document }` with the document as an object (no file: what a page does) in the
 * hosts other than the CLI: interceptFetch (tests), handlersFor inside the app's own msw server,
 * the connect/Vite middleware on a real node:http server. Browser mode through the worker is in
 * test/e2e/openapi.e2e.ts.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setupServer } from 'msw/node';
import { afterEach, describe, expect, it } from 'vitest';
import { createMockApi } from '../../src/engine/create-mock-api.js';
import { handlersFor } from '../../src/msw/index.js';
import { createMiddleware } from '../../src/node/middleware.js';
import { interceptFetch } from '../../src/test/index.js';

const document = {
  openapi: '3.1.0',
  info: { title: 'Todos', version: '1' },
  paths: {
    '/todos': {
      get: { parameters: [{ name: 'done', in: 'query', schema: { type: 'boolean' } }, { name: 'limit', in: 'query', schema: { type: 'integer', default: 5 } }, { name: 'offset', in: 'query', schema: { type: 'integer' } }], responses: { 200: { description: 'todos', content: { 'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/Todo' } } } } } } },
      post: { requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/Todo' } } } }, responses: { 201: { description: 'created', content: { 'application/json': { schema: { $ref: '#/components/schemas/Todo' } } } } } },
    },
    '/todos/{id}': {
      get: { parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }], responses: { 200: { description: 'a todo', content: { 'application/json': { schema: { $ref: '#/components/schemas/Todo' } } } }, 404: { description: 'missing' } } },
      delete: { parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }], responses: { 204: { description: 'gone' } } },
    },
  },
  components: { schemas: { Todo: { type: 'object', required: ['title', 'done'], properties: { id: { type: 'integer', readOnly: true }, title: { type: 'string' }, done: { type: 'boolean' } } } } },
};

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** The same walk through the backend, whatever host carries the requests. */
async function walk(base: string) {
  const list = await fetch(`${base}/todos`);
  expect(list.status).toBe(200);
  expect(list.headers.get('x-total-count')).toBe('20');
  const todos = (await list.json()) as { id: number; title: string; done: boolean }[];
  expect(todos).toHaveLength(5); // the limit parameter's default
  const one = await (await fetch(`${base}/todos/${todos[2]!.id}`)).json();
  expect(one).toEqual(todos[2]);
  const done = (await (await fetch(`${base}/todos?done=true&limit=100`)).json()) as { done: boolean }[];
  expect(done.every((t) => t.done === true)).toBe(true);
  const created = await fetch(`${base}/todos`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ title: 'write tests', done: false }) });
  expect(created.status).toBe(201);
  expect(await created.json()).toEqual({ id: 21, title: 'write tests', done: false });
  expect((await fetch(`${base}/todos/21`, { method: 'DELETE' })).status).toBe(204);
  expect((await fetch(`${base}/todos/21`)).status).toBe(404);
  const bad = await fetch(`${base}/todos`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ title: 3 }) });
  expect(bad.status).toBe(400);
  return todos;
}

describe('mock.openapi with the document as an object', () => {
  it('interceptFetch, handlersFor (msw) and the middleware serve the same seeded backend', async () => {
    const make = () => createMockApi({ endpointPrefix: '/api', fsDir: null, logLevel: 'silent', openapi: { document } });

    const a = make();
    const mocked = interceptFetch(a, { baseUrl: 'http://app.test' });
    cleanups.push(() => a.close(), () => mocked.restore());
    const viaIntercept = await walk('http://app.test/api');
    mocked.restore();

    const b = make();
    const server = setupServer(...handlersFor(b, { baseUrl: 'http://api.test' }));
    server.listen({ onUnhandledRequest: 'error' });
    cleanups.push(() => b.close(), () => server.close());
    expect(await walk('http://api.test/api')).toEqual(viaIntercept);
    server.close();

    const mw = await createMiddleware({ mock: { endpointPrefix: '/api', fsDir: null, logLevel: 'silent', openapi: { document } } });
    const http = createServer((req, res) => mw(req, res, () => { res.statusCode = 418; res.end(); }));
    await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
    cleanups.push(() => mw.close?.(), () => new Promise((r) => http.close(r)));
    const port = (http.address() as AddressInfo).port;
    expect(await walk(`http://127.0.0.1:${port}/api`)).toEqual(viaIntercept);
  });
});

describe('documents as their writers meant them', () => {
  it('3.0 nullable without a type and unknown formats are accepted; an operation that cannot compile is reported once and answered unvalidated, the others still checked', async () => {
    const warnings: string[] = [];
    const errors: string[] = [];
    const doc = {
      openapi: '3.0.3',
      info: { title: 'Odd', version: '1' },
      paths: {
        '/things': {
          get: {
            parameters: [{ name: 'limit', in: 'query', schema: { type: 'integer', maximum: 10 } }],
            responses: { 200: { description: 'ok', content: { 'application/json': { schema: { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' }, note: { nullable: true, description: 'no type' }, code: { type: 'string', format: 'x-made-up' } } } } } } } },
          },
        },
        '/broken': {
          get: {
            parameters: [{ name: 'q', in: 'query', schema: { type: 'string', pattern: '(' } }],
            responses: { 200: { description: 'ok', content: { 'application/json': { schema: { type: 'object', properties: { ok: { type: 'boolean' } } } } } } },
          },
        },
      },
    };
    const api = createMockApi({ endpointPrefix: '/api', fsDir: null, logger: { info() {}, warn: (m: string) => warnings.push(m), error: (m: string) => errors.push(m) }, openapi: { document: doc } });
    cleanups.push(() => api.close());
    await api.ready();
    const things = await api.handle(new Request('http://x/api/things?limit=3'));
    expect(things!.status).toBe(200);
    expect(Array.isArray(await things!.json())).toBe(true);
    expect((await api.handle(new Request('http://x/api/things?limit=30')))!.status).toBe(400);
    for (let i = 0; i < 3; i++) expect((await api.handle(new Request('http://x/api/broken?q=x')))!.status).toBe(200);
    expect(warnings.filter((w) => w.includes('GET /broken cannot be validated'))).toHaveLength(1);
    expect(errors).toEqual([]);
  });
});

describe('created items', () => {
  it('draw the readOnly and required fields the client left out (only those), and never take an id again', async () => {
    const notes = {
      openapi: '3.0.3',
      info: { title: 'Notes', version: '1' },
      paths: {
        '/notes': { post: { requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/Note' } } } }, responses: { 201: { description: 'created', content: { 'application/json': { schema: { $ref: '#/components/schemas/Note' } } } } } } },
        '/notes/{id}': {
          get: { parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }], responses: { 200: { description: 'a note', content: { 'application/json': { schema: { $ref: '#/components/schemas/Note' } } } } } },
          delete: { parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }], responses: { 204: { description: 'gone' } } },
        },
      },
      components: { schemas: { Note: { type: 'object', required: ['text'], properties: { id: { type: 'integer', readOnly: true }, text: { type: 'string' }, createdAt: { type: 'string', format: 'date-time', readOnly: true }, tag: { type: 'string' } } } } },
    };
    const api = createMockApi({ endpointPrefix: '/api', fsDir: null, logLevel: 'silent', openapi: { document: notes, count: 2 } });
    cleanups.push(() => api.close());
    const post = async (body: object) => (await api.handle(new Request('http://x/api/notes', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })))!.json() as Promise<Record<string, unknown>>;
    const drawn = await post({ text: 'a' });
    expect(drawn).toEqual({ id: 3, text: 'a', createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) }); // no tag: neither required nor readOnly
    const given = await post({ text: 'b', createdAt: '2020-01-01T00:00:00Z' });
    expect(given).toEqual({ id: 4, text: 'b', createdAt: '2020-01-01T00:00:00Z' });
    expect((await api.handle(new Request('http://x/api/notes/4', { method: 'DELETE' })))!.status).toBe(204);
    expect((await post({ text: 'c' })).id).toBe(5); // 4 was deleted: not given again
  });
});
