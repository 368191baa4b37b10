/**
 * `openapi: { validateResponses | strictResponses }`: every answer (file, handler, generated,
 * proxied) is checked against the documented response for its status and content type, through a
 * real server on 127.0.0.1: violations logged with their JSON pointers, marked in the devtools
 * journal (and filterable there), a 500 listing them in strict mode; streams pass unread.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { MockApiOptions } from '../../../src/engine/mock-api-options.js';
import { memoryFs } from '../../../src/vfs/memory.js';
import { closeServers, startServer } from '../../helpers/server.js';
import { closeUpstreams, startUpstream } from '../../helpers/upstream.js';

afterEach(async () => {
  await closeServers();
  await closeUpstreams();
});

const pet = { type: 'object', required: ['id', 'name'], properties: { id: { type: 'integer' }, name: { type: 'string' }, owner: { type: 'object', properties: { name: { type: 'string' } } } } };
const json = (schema: object) => ({ content: { 'application/json': { schema } } });
const DOC = {
  openapi: '3.0.3',
  info: { title: 'contract', version: '1' },
  paths: {
    '/pets': {
      get: { responses: { '200': { description: 'pets', ...json({ type: 'array', items: pet }) } } },
      post: { requestBody: { required: true, ...json(pet) }, responses: { '201': { description: 'created', ...json(pet) } } },
    },
    '/pets/{id}': {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
      get: { responses: { '200': { description: 'a pet', ...json(pet) }, default: { description: 'error', ...json({ type: 'object', required: ['code'], properties: { code: { type: 'integer' } } }) } } },
    },
    '/handled/{id}': {
      get: { parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }], responses: { '200': { description: 'a pet', ...json(pet) } } },
    },
    '/proxied/{id}': {
      get: { parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }], responses: { '200': { description: 'a pet', ...json(pet) } } },
    },
    '/events': {
      get: { responses: { '200': { description: 'a stream', content: { 'text/event-stream': { schema: { type: 'string' } } } } } },
    },
    '/report': {
      get: { responses: { '200': { description: 'a pet', ...json(pet) } } },
    },
  },
};

interface Entry {
  method: string;
  url: string;
  status: number;
  answeredBy: { layer: string } | null;
  violations: { operation: string; status: number; problems: Array<{ pointer: string; message: string }> } | null;
  response: { body: { captured: boolean; text?: string } | null } | null;
}

async function serveDoc(openapi: Record<string, unknown>, more: Partial<MockApiOptions> = {}) {
  const warnings: string[] = [];
  const upstream = await startUpstream((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(req.url === '/api/proxied/good' ? '{"id":5,"name":"Upstream"}' : '{"id":"five"}');
  });
  const mock: MockApiOptions = {
      endpointPrefix: '/api',
      fs: memoryFs({ 'pets/1.json': { id: 1, name: 'Rex' }, 'pets/2.json': { id: 2, owner: { name: 7 } }}),
      openapi: { document: DOC, ...openapi }, // with a proxy: no generated backend (mock: false)
      proxy: { target: upstream.url },
      handlers: [
        { pattern: '/handled/:id', handle: (req, res) => void res.json(req.params.id === 'good' ? { id: 3, name: 'Handled' } : { id: 3 }) },
        { pattern: '/report', handle: () => new Response('<p>report</p>', { headers: { 'content-type': 'text/html; charset=utf-8' } }) },
        {
          pattern: '/events',
          // An event stream that stays open until the client goes: it must reach the client unread.
          handle: () =>
            new Response(
              new ReadableStream({
                start(c) {
                  c.enqueue(new TextEncoder().encode('data: first\n\n'));
                },
              }),
              { headers: { 'content-type': 'text/event-stream' } },
            ),
        },
      ],
      ...more,
  };
  const server = await startServer({
    logLevel: 'warn',
    logger: { debug() {}, info() {}, warn: (m: string) => warnings.push(m), error: (m: string) => warnings.push(m) },
    mock,
  } as never);
  const journal = async (query = '') => ((await (await fetch(`${server.url}/_mockyard/api/requests${query}`)).json()) as { entries: Entry[] }).entries;
  return { server, warnings, journal };
}

describe('OpenAPI response validation (validateResponses)', () => {
  it('a file, a handler and a proxied answer that break the document are marked in the journal and logged with their JSON pointers; the answers go out unchanged', async () => {
    const { server, warnings, journal } = await serveDoc({ validateResponses: true });
    const file = await fetch(`${server.url}/api/pets/2`);
    expect(file.status).toBe(200);
    expect(await file.json()).toEqual({ id: 2, owner: { name: 7 } }); // sent as it is
    expect(await (await fetch(`${server.url}/api/pets/1`)).json()).toEqual({ id: 1, name: 'Rex' });
    expect(await (await fetch(`${server.url}/api/handled/bad`)).json()).toEqual({ id: 3 });
    expect((await fetch(`${server.url}/api/handled/good`)).status).toBe(200);
    expect(await (await fetch(`${server.url}/api/proxied/bad`)).json()).toEqual({ id: 'five' });
    expect(await (await fetch(`${server.url}/api/proxied/good`)).json()).toEqual({ id: 5, name: 'Upstream' });

    const marked = await journal('?violations=true');
    expect(marked.map((e) => [e.url, e.answeredBy?.layer])).toEqual([
      ['/api/proxied/bad', 'proxy'],
      ['/api/handled/bad', 'handlers'],
      ['/api/pets/2', 'files'],
    ]);
    expect(marked[2]!.violations).toEqual({
      operation: 'GET /pets/{id}',
      status: 200,
      problems: [
        { pointer: '/name', message: 'is required' },
        { pointer: '/owner/name', message: 'must be string' },
      ],
    });
    expect(marked[2]!.response!.body).toMatchObject({ captured: true, text: JSON.stringify({ id: 2, owner: { name: 7 } }, null, 2) }); // checking kept the answer as cheap to record as before
    expect(marked[0]!.violations!.problems).toEqual([
      { pointer: '/name', message: 'is required' },
      { pointer: '/id', message: 'must be integer' },
    ]);
    const clean = await journal('?violations=false');
    expect(clean.map((e) => e.url).sort()).toEqual(['/api/handled/good', '/api/pets/1', '/api/proxied/good']);
    expect(clean.every((e) => e.violations === null)).toBe(true);
    expect(warnings.filter((w) => w.includes('does not match'))).toEqual([
      '[mockyard] openapi: the answer to GET /api/pets/2 (200, files) does not match GET /pets/{id}: /name is required; /owner/name must be string',
      '[mockyard] openapi: the answer to GET /api/handled/bad (200, handlers) does not match GET /handled/{id}: /name is required',
      '[mockyard] openapi: the answer to GET /api/proxied/bad (200, proxy) does not match GET /proxied/{id}: /name is required; /id must be integer',
    ]);
    expect((await fetch(`${server.url}/_mockyard/api/requests?violations=maybe`)).status).toBe(400);
  });

  it('the generated backend answers and its plain 404 pass; an undocumented content type is a violation found from the header alone', async () => {
    const { server, journal } = await serveDoc({ validateResponses: true }, { proxy: undefined });
    expect((await fetch(`${server.url}/api/pets`)).status).toBe(200); // generated population
    const created = await fetch(`${server.url}/api/pets`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"id":77,"name":"New"}' });
    expect(created.status).toBe(201);
    expect((await fetch(`${server.url}/api/pets/999999`)).status).toBe(404); // the mock's own 404: `default` is not held against it
    const report = await fetch(`${server.url}/api/report`);
    expect(report.status).toBe(200);
    const marked = await journal('?violations=true');
    expect(marked.map((e) => e.url)).toEqual(['/api/report']);
    expect(marked[0]!.violations!.problems).toEqual([{ pointer: '', message: 'content type text/html is not documented for 200 (application/json)' }]);
    expect(await report.text()).toBe('<p>report</p>');
  });

  it('an event stream passes through unread while it stays open', async () => {
    const { server, journal } = await serveDoc({ strictResponses: true });
    const controller = new AbortController();
    const res = await fetch(`${server.url}/api/events`, { signal: controller.signal });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const reader = res.body!.getReader();
    const { value } = await reader.read(); // the stream never ends: buffering it would hang here
    expect(new TextDecoder().decode(value)).toBe('data: first\n\n');
    controller.abort();
    expect((await journal()).find((e) => e.url === '/api/events')!.violations).toBeNull();
  });
});

describe('OpenAPI response validation (strictResponses)', () => {
  it('an answer that breaks the document becomes a 500 listing the violations; matching answers are untouched', async () => {
    const { server, journal } = await serveDoc({ strictResponses: true });
    const bad = await fetch(`${server.url}/api/pets/2`);
    expect(bad.status).toBe(500);
    const body = (await bad.json()) as { message: string; operation: string; answered: unknown; violations: unknown };
    expect(body.message).toBe('The answer (200) does not match the OpenAPI document (GET /pets/{id}): /name is required; /owner/name must be string');
    expect(body.operation).toBe('GET /pets/{id}');
    expect(body.answered).toEqual({ status: 200, layer: 'files' });
    expect(body.violations).toEqual([
      { pointer: '/name', message: 'is required' },
      { pointer: '/owner/name', message: 'must be string' },
    ]);
    expect((await fetch(`${server.url}/api/proxied/bad`)).status).toBe(500);
    expect((await fetch(`${server.url}/api/handled/bad`)).status).toBe(500);
    const good = await fetch(`${server.url}/api/pets/1`);
    expect(good.status).toBe(200);
    expect(await good.json()).toEqual({ id: 1, name: 'Rex' });
    expect((await fetch(`${server.url}/api/proxied/good`)).status).toBe(200);
    const entry = (await journal('?violations=true')).find((e) => e.url === '/api/pets/2')!;
    expect(entry.status).toBe(500);
    expect(entry.answeredBy?.layer).toBe('openapi');
    expect(entry.violations!.status).toBe(200);
  });

  it('an undocumented success status is a violation; a request the document refuses is still its 400', async () => {
    const { server } = await serveDoc({ strictResponses: true }, { handlers: [{ pattern: '/handled/:id', handle: (_req, res) => void res.status(202).json({ id: 1, name: 'x' }) }] });
    const r = await fetch(`${server.url}/api/handled/x`);
    expect(r.status).toBe(500);
    expect(((await r.json()) as { violations: unknown }).violations).toEqual([{ pointer: '', message: 'status 202 is not documented (200)' }]);
    expect((await fetch(`${server.url}/api/pets/abc`)).status).toBe(400);
  });

  it('is an option checked at start-up', async () => {
    await expect(startServer({ mock: { endpointPrefix: '/api', fsDir: null, openapi: { document: DOC, strictResponses: 'yes' } } } as never)).rejects.toThrow(/mock\.openapi\.strictResponses/);
  });
});

describe('OpenAPI response validation of native bodies', () => {
  it('a JSON answer streamed by a handler (no Content-Length) goes out as it comes, unread, said once in the log', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const { server, warnings, journal } = await serveDoc({ strictResponses: true }, {
      handlers: [
        {
          pattern: '/handled/:id',
          handle: () =>
            new Response(
              new ReadableStream({
                async start(c) {
                  c.enqueue(new TextEncoder().encode('{"id":'));
                  await gate; // the rest only after the client saw the first part
                  c.enqueue(new TextEncoder().encode('"not a number"}'));
                  c.close();
                },
              }),
              { headers: { 'content-type': 'application/json' } },
            ),
        },
      ],
    });
    const res = await fetch(`${server.url}/api/handled/x`);
    expect(res.status).toBe(200); // not held for checking: strict mode cannot judge it
    const reader = res.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('{"id":');
    release();
    let rest = '';
    for (let r = await reader.read(); !r.done; r = await reader.read()) rest += new TextDecoder().decode(r.value);
    expect(rest).toBe('"not a number"}');
    expect((await fetch(`${server.url}/api/handled/y`)).status).toBe(200);
    expect(warnings.filter((w) => w.includes('is a streamed body'))).toEqual([
      '[mockyard] openapi: the answer to GET /api/handled/x (200, handlers) is a streamed body (no Content-Length): its body is not checked against GET /handled/{id}',
    ]);
    expect((await journal('?violations=true')).length).toBe(0);
  });
});
