/**
 * serve(): options, engines built from options (and closed with the server), engine order,
 * base URLs.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../src/core/engine.js';
import { FastResponse } from '../../src/core/fast-response.js';
import { OptionsError } from '../../src/core/options.js';
import { baseUrl, serve } from '../../src/node/serve.js';
import { memoryFs } from '../../src/vfs/memory.js';
import { closeServers, fakeEngine, rawRequest, startServer } from '../helpers/server.js';
import { makeTempDir, removeTempDirs } from '../helpers/temp-dir.js';

afterEach(async () => {
  await closeServers();
  await removeTempDirs();
});

describe('serve()', () => {
  it.each([
    [{ port: -1 }, 'port'],
    [{ port: 1.5 }, 'port'],
    [{ port: 70000 }, 'port'],
    [{ host: '' }, 'host'],
  ])('rejects bad host options %j naming the option', async (options, option) => {
    const err = await serve({ ...options, logLevel: 'silent' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OptionsError);
    expect((err as OptionsError).option).toBe(option);
  });

  it('builds the mock API and the collector from options; tracker answers before a "/" mock prefix', async () => {
    const server = await startServer({
      mock: { endpointPrefix: '/', fs: memoryFs({ 'hello.json': { hi: true } }), logLevel: 'silent' },
      tracker: { appId: 'serve-test', logLevel: 'silent' },
    });
    expect(server.engines.length).toBe(3); // the devtools admin API (loopback host), the collector, the mock API
    expect(await (await fetch(`${server.url}/hello`)).json()).toEqual({ hi: true });
    expect(await (await fetch(`${server.url}/_tracker/ping`)).json()).toMatchObject({ ok: true, appId: 'serve-test' });
  });

  it('`tracker: true` runs the collector with defaults', async () => {
    const server = await startServer({ tracker: true });
    expect(await (await fetch(`${server.url}/_tracker/ping`)).json()).toMatchObject({ ok: true, appId: 'mockyard' });
  });

  it('a relative fsDir resolves against mock.root (default: the working directory)', async () => {
    const root = await makeTempDir();
    await mkdir(join(root, 'data'), { recursive: true });
    await writeFile(join(root, 'data', 'a.json'), '{"a":1}');
    const server = await startServer({ mock: { endpointPrefix: '/api', fsDir: 'data', root, logLevel: 'silent' } });
    expect(await (await fetch(`${server.url}/api/a`)).json()).toEqual({ a: 1 });
  });

  it('closes the engines it created from options', async () => {
    let closed = 0;
    const server = await serve({ port: 0, logLevel: 'silent', mock: { endpointPrefix: '/api', fs: memoryFs(), logLevel: 'silent' } });
    const engine = server.engines[0]!;
    const original = engine.close!.bind(engine);
    (engine as { close: () => Promise<void> }).close = async () => { closed++; await original(); };
    await server.close();
    await server.close(); // idempotent
    expect(closed).toBe(1);
  });

  it('invalid mock options fail at start-up with the option named', async () => {
    const err = await serve({ port: 0, logLevel: 'silent', mock: { endpointPrefix: '/api', delay: -3 } as never }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OptionsError);
    expect(String((err as Error).message)).toMatch(/delay/);
  });

  it('asks only the engines whose prefixes cover the path (segment boundary)', async () => {
    const asked: string[] = [];
    const engine = (name: string, prefixes: string[]) =>
      fakeEngine({ prefixes, handle: (r) => { asked.push(`${name} ${new URL(r.url).pathname}`); return undefined; } });
    const server = await startServer({ engines: [engine('api', ['/api']), engine('trk', ['/_tracker']), engine('all', ['/'])] });
    for (const path of ['/api/x', '/apix', '/_tracker/ping', '/other']) expect((await fetch(server.url + path)).status).toBe(404);
    expect(asked).toEqual(['api /api/x', 'all /api/x', 'all /apix', 'trk /_tracker/ping', 'all /_tracker/ping', 'all /other']);
  });

  it('writes an engine\'s handleCached answer without asking handle; undefined falls through to handle', async () => {
    const handled: string[] = [];
    const engine = Object.assign(
      fakeEngine({ prefixes: ['/api'], handle: (r) => { handled.push(new URL(r.url).pathname); return FastResponse.json('{"from":"handle"}'); } }),
      { handleCached: (r: Request) => (new URL(r.url).pathname === '/api/hot' ? FastResponse.json('{"from":"cache"}', 200, { 'X-Total-Count': '1' }) : undefined) },
    );
    const server = await startServer({ engines: [engine] });
    const hot = await fetch(`${server.url}/api/hot`);
    expect([hot.headers.get('x-total-count'), await hot.json()]).toEqual(['1', { from: 'cache' }]);
    const head = await rawRequest(server.url, { method: 'HEAD', path: '/api/hot' });
    expect([head.status, head.headers['content-length'], head.body.byteLength]).toEqual([200, '16', 0]);
    expect(await (await fetch(`${server.url}/api/cold`)).json()).toEqual({ from: 'handle' });
    expect(handled).toEqual(['/api/cold']);
  });

  it('the mock API answers cached files through handleCached with the same bytes and headers as handle', async () => {
    const fs = memoryFs({ 'items.json': [{ id: 1 }, { id: 2 }] });
    const server = await startServer({ mock: { endpointPrefix: '/api', fs, logLevel: 'silent' } });
    const api = server.engines.find((e) => 'handleCached' in e) as unknown as { handleCached(r: Request): Response | undefined };
    expect(api.handleCached(new Request(`${server.url}/api/items`))).toBeUndefined(); // not cached yet
    const first = await rawRequest(server.url, { path: '/api/items' });
    expect(api.handleCached(new Request(`${server.url}/api/items`))).toBeDefined();
    const second = await rawRequest(server.url, { path: '/api/items' });
    expect(second.body.toString()).toBe(first.body.toString());
    for (const h of ['content-type', 'content-length', 'x-total-count']) expect(second.headers[h]).toBe(first.headers[h]);
  });

  it('refuses at start-up an engine without prefixes (hosts route by them)', async () => {
    const noPrefixes = { handle: async () => FastResponse.json('{}') } as unknown as Engine;
    await expect(serve({ port: 0, engines: [noPrefixes] })).rejects.toThrow(/"engines" must hold engines .*prefixes array/);
  });

  it('given engines come after mock and tracker, in order', async () => {
    const server = await startServer({
      mock: { endpointPrefix: '/api', fs: memoryFs({ 'x.json': { from: 'mock' } }), logLevel: 'silent', noHandledRestFsRequestsAction: 'forward' },
      engines: [fakeEngine({ handle: () => FastResponse.json('{"from":"extra"}') })],
    });
    expect(await (await fetch(`${server.url}/api/x`)).json()).toEqual({ from: 'mock' });
    expect(await (await fetch(`${server.url}/api/missing`)).json()).toEqual({ from: 'extra' });
    expect(await (await fetch(`${server.url}/other`)).json()).toEqual({ from: 'extra' });
  });
});

describe('baseUrl', () => {
  it('shows loopback for unspecified addresses and brackets IPv6', () => {
    expect(baseUrl('127.0.0.1', 3000)).toBe('http://127.0.0.1:3000');
    expect(baseUrl('0.0.0.0', 3000)).toBe('http://127.0.0.1:3000');
    expect(baseUrl('::', 3000)).toBe('http://127.0.0.1:3000');
    expect(baseUrl('::1', 8080)).toBe('http://[::1]:8080');
  });
});
