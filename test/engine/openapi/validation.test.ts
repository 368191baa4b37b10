/**
 * `mock.openapi`: requests are validated against the document before any handler or file runs
 * (Petstore fixtures, test/fixtures/openapi). Real server, real files from `mockyard import`.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createNodeMockApi as createMockApi } from '../../../src/node/engines.js'; // the `mockyard` entry under Node: documents read from disk
import { memoryFs } from '../../../src/vfs/memory.js';
import { runCli } from '../../helpers/cli-run.js';
import { closeServers, startServer } from '../../helpers/server.js';
import { makeTempDir, removeTempDirs } from '../../helpers/temp-dir.js';
import { closeUpstreams, startUpstream } from '../../helpers/upstream.js';

const FIXTURES = fileURLToPath(new URL('../../fixtures/openapi/', import.meta.url));
afterEach(async () => {
  await closeServers();
  await closeUpstreams();
  await removeTempDirs();
});

function api(doc: string, handlerCalls: string[] = []) {
  return createMockApi({
    endpointPrefix: '/v1',
    fs: memoryFs({ 'pets.json': [{ id: 1, name: 'Rex' }], 'pets/7.json': { id: 7, name: 'Fido' } }),
    logLevel: 'silent',
    openapi: join(FIXTURES, doc),
    handlers: [{ pattern: '/pets', method: 'POST', handle: (req, res) => { handlerCalls.push(JSON.stringify(req.body)); res.status(201).json({ id: 3, ...(req.body as object) }); } }],
  });
}

describe('OpenAPI request validation', () => {
  it('a request breaking the schema is a 400 naming the field, before any handler runs (3.1)', async () => {
    const calls: string[] = [];
    const engine = api('petstore-3.1.yaml', calls);
    // Only api.use()'s handlers and the run-time route overrides (set from the devtools) answer before
    // it (the webhooks layer, first, answers nothing: it watches the answers).
    expect(engine.layers.filter((l) => l !== 'overrides' && l !== 'webhooks' && l !== 'route-overrides')[0]).toBe('openapi');
    await engine.ready();
    const bad = await engine.handle(new Request('http://x/v1/pets', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: '', color: 'red' }) }));
    expect(bad!.status).toBe(400);
    const body = (await bad!.json()) as { error: string; message: string; errors: Array<{ in: string; at: string; message: string }> };
    expect(body.error).toBe('BAD_REQUEST');
    expect(body.message).toMatch(/^Request does not match the OpenAPI document: /);
    expect(body.message).toContain('body.name must NOT have fewer than 1 characters');
    expect(body.errors).toContainEqual({ in: 'body', at: 'color', message: 'is not allowed' });
    expect(calls).toEqual([]);

    const missing = await engine.handle(new Request('http://x/v1/pets', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }));
    expect(((await missing!.json()) as { errors: unknown[] }).errors).toEqual([{ in: 'body', at: 'name', message: 'is required' }]);
    const none = await engine.handle(new Request('http://x/v1/pets', { method: 'POST' }));
    expect(((await none!.json()) as { errors: unknown[] }).errors).toEqual([{ in: 'body', at: '', message: 'is required' }]);
    expect((await engine.handle(new Request('http://x/v1/pets', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":' })))!.status).toBe(400); // malformed JSON

    // A valid body reaches the handler, which reads the body the validator already read.
    const ok = await engine.handle(new Request('http://x/v1/pets', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"Kit","tag":null}' }));
    expect(ok!.status).toBe(201);
    expect(calls).toEqual(['{"name":"Kit","tag":null}']);
    await engine.close();
  });

  it('query and path parameters (coerced from strings), unknown paths 404, unknown methods 405 (3.0)', async () => {
    const engine = api('petstore-3.0.yaml');
    await engine.ready();
    const big = await engine.handle(new Request('http://x/v1/pets?limit=500'));
    expect(big!.status).toBe(400);
    expect(((await big!.json()) as { message: string }).message).toBe('Request does not match the OpenAPI document: query.limit must be <= 100');
    expect(((await (await engine.handle(new Request('http://x/v1/pets?limit=abc')))!.json()) as { message: string }).message).toContain('query.limit must be integer');
    expect((await engine.handle(new Request('http://x/v1/pets/abc')))!.status).toBe(400);
    expect((await engine.handle(new Request('http://x/v1/pets?limit=5')))!.status).toBe(200);
    expect((await engine.handle(new Request('http://x/v1/pets/7')))!.status).toBe(200);
    expect(engine.handleCached!(new Request('http://x/v1/pets?limit=500'))!.status).toBe(400); // fast path too
    const unknown = await engine.handle(new Request('http://x/v1/owners'));
    expect(unknown!.status).toBe(404);
    expect(((await unknown!.json()) as { message: string }).message).toBe('No operation for GET /v1/owners in the OpenAPI document');
    const del = await engine.handle(new Request('http://x/v1/pets/7', { method: 'DELETE' }));
    expect(del!.status).toBe(405);
    expect(del!.headers.get('allow')).toBe('GET');
    await engine.close();
  });

  it('over HTTP: files written by `mockyard import` are served and checked by the same document; bodies still reach the proxy', async () => {
    const root = await makeTempDir();
    expect((await runCli(['import', join(FIXTURES, 'petstore-3.0.yaml'), '--fs-dir', 'mocks'], root)).code).toBe(0);
    const upstream = await startUpstream((_req, res, body) => void body().then((b) => res.writeHead(201, { 'content-type': 'application/json' }).end(b)));
    const server = await startServer({ mock: { endpointPrefix: '/v1', fsDir: join(root, 'mocks'), logLevel: 'silent', openapi: join(FIXTURES, 'petstore-3.0.yaml'), proxy: { target: upstream.url }, parser: false } });
    const list = await fetch(`${server.url}/v1/pets`);
    expect(list.status).toBe(200);
    expect(((await list.json()) as unknown[]).length).toBe(20); // pets.json: the imported population
    const bad = await fetch(`${server.url}/v1/pets/seven`);
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { message: string }).message).toContain('path.petId must be integer');
    // The files layer answers POST in file mode; with a handler-free fsDir: null set-up the proxy gets the kept body.
    const s2 = await startServer({ mock: { endpointPrefix: '/v1', fsDir: null, logLevel: 'silent', openapi: join(FIXTURES, 'petstore-3.0.yaml'), proxy: { target: upstream.url } } });
    const posted = await fetch(`${s2.url}/v1/pets`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"id":9,"name":"Kit"}' });
    expect(posted.status).toBe(201);
    expect(await posted.json()).toEqual({ id: 9, name: 'Kit' });
    const rejected = await fetch(`${s2.url}/v1/pets`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"id":"nine"}' });
    expect(rejected.status).toBe(400);
    expect(upstream.seen).toHaveLength(1);
  });

  it('validateResponses: an answer that breaks its schema is logged as a warning and sent unchanged', async () => {
    const warnings: string[] = [];
    const engine = createMockApi({
      endpointPrefix: '/v1',
      fs: memoryFs({ 'pets.json': [{ id: 1, name: 'Rex' }], 'pets/7.json': { id: 'seven' } }),
      logger: { info() {}, warn: (m: string) => warnings.push(m), error() {} },
      openapi: { document: join(FIXTURES, 'petstore-3.0.yaml'), validateResponses: true },
    });
    await engine.ready();
    const r = await engine.handle(new Request('http://x/v1/pets/7'));
    expect(await r!.json()).toEqual({ id: 'seven' });
    await vi.waitFor(() => expect(warnings).toHaveLength(1));
    expect(warnings[0]).toBe('[mockyard] openapi: the answer to GET /v1/pets/7 (200, files) does not match GET /pets/{petId}: /name is required; /id must be integer'); // JSON pointers into the body
    expect((await engine.handle(new Request('http://x/v1/pets')))!.status).toBe(200); // a valid answer: no warning
    await engine.close();
    expect(warnings).toHaveLength(1);
  });

  it('a document given as an object (browser mode) is dereferenced locally: Swagger 2 body and path parameters', async () => {
    const { readFile } = await import('node:fs/promises');
    const doc = JSON.parse(await readFile(join(FIXTURES, 'petstore-swagger-2.0.json'), 'utf8')) as object;
    const engine = createMockApi({ endpointPrefix: '/v1', fs: memoryFs({}), logLevel: 'silent', openapi: doc });
    const bad = await engine.handle(new Request('http://x/v1/pets', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"id":"x"}' }));
    expect(bad!.status).toBe(400);
    expect(((await bad!.json()) as { errors: unknown[] }).errors).toEqual([
      { in: 'body', at: 'name', message: 'is required' },
      { in: 'body', at: 'id', message: 'must be integer' },
    ]);
    await engine.close();
  });

  it('an option that is neither a path nor a document is an OptionsError; a document that cannot be loaded answers 500', async () => {
    expect(() => createMockApi({ endpointPrefix: '/v1', fsDir: null, openapi: 42 as never })).toThrow(/mock\.openapi/);
    const engine = createMockApi({ endpointPrefix: '/v1', fsDir: null, logLevel: 'silent', openapi: join(FIXTURES, 'missing.yaml') });
    const r = await engine.handle(new Request('http://x/v1/pets'));
    expect(r!.status).toBe(500);
    expect(((await r!.json()) as { message: string }).message).toBe('The OpenAPI document could not be loaded');
    await engine.close();
  });
});

describe('compressed request bodies', () => {
  it('a gzip JSON body is validated and served decoded; the proxy still gets it as sent', async () => {
    const { gzipSync } = await import('node:zlib');
    const doc = join(FIXTURES, 'petstore-3.0.yaml');
    const generated = await startServer({ mock: { endpointPrefix: '/v1', fsDir: null, logLevel: 'silent', openapi: doc } });
    const post = (url: string, body: object) => fetch(`${url}/v1/pets`, { method: 'POST', headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' }, body: gzipSync(JSON.stringify(body)) });
    const created = await post(generated.url, { id: 5, name: 'Zip' });
    expect(created.status).toBe(201);
    const bad = await post(generated.url, { id: 'five' });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { message: string }).message).toContain('body.id must be integer');

    const upstream = await startUpstream((req, res, body) => {
      void body().then((b) => {
        res.writeHead(201, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ encoding: req.headers['content-encoding'] ?? null, size: b.byteLength }));
      });
    });
    const proxied = await startServer({ mock: { endpointPrefix: '/v1', fsDir: null, logLevel: 'silent', openapi: doc, proxy: { target: upstream.url } } });
    const sent = gzipSync(JSON.stringify({ id: 6, name: 'Zap' }));
    const forwarded = await fetch(`${proxied.url}/v1/pets`, { method: 'POST', headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' }, body: sent });
    expect(forwarded.status).toBe(201);
    expect(await forwarded.json()).toEqual({ encoding: 'gzip', size: sent.byteLength });
  });
});
