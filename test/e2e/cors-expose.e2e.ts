/**
 * Cross-origin answers in real Chromium: a page on one origin (a dev server, here a bare
 * node:http page on 127.0.0.1) calls the mock API on another (the real CLI). The browser lets the
 * page read only the headers the answer exposes; a handler's own headers (`X-Request-Id`, `ETag`)
 * and a recording's replayed headers must be readable there as they are from the same origin.
 */
import { createServer, type Server } from 'node:http';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startCli, stopCliProcesses } from '../helpers/cli-process.js';
import { launchChromium, type Browser } from './helpers/chromium.js';

const cli = fileURLToPath(new URL('../../dist/node/cli.js', import.meta.url));
let browser: Browser;
let dir: string;
let api: string;
let page: Server;
let pageUrl: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mockyard-e2e-cors-'));
  await writeFile(join(dir, 'mockyard.config.mjs'), `export default { mock: { endpointPrefix: '/api', fsDir: '.', logLevel: 'warn', handlers: [
    { pattern: '/hello', method: 'GET', handle: (req, res) => { res.setHeader('X-Request-Id', 'r-42'); res.setHeader('ETag', '"v1"'); res.json({ hello: 'world' }); } },
  ] } };\n`);
  ({ url: api } = await startCli(cli, ['--port', '0', '--log-level', 'warn'], dir));
  page = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>app</title>'));
  await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
  pageUrl = `http://127.0.0.1:${(page.address() as { port: number }).port}/`;
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await stopCliProcesses();
  await new Promise((resolve) => page?.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

it('a page on another origin reads the headers a handler set (not only the listed ones)', async () => {
  const tab = await browser.context.newPage();
  await tab.goto(pageUrl);
  expect(new URL(pageUrl).origin).not.toBe(new URL(api).origin);
  const got = await tab.evaluate(async (url) => {
    const res = await fetch(url);
    return { status: res.status, id: res.headers.get('x-request-id'), etag: res.headers.get('etag'), body: await res.json() };
  }, `${api}/api/hello`);
  expect(got).toEqual({ status: 200, id: 'r-42', etag: '"v1"', body: { hello: 'world' } });
  await tab.close();
});

it("a page reads Mockyard-Error beside a document's error example, credentials included", async () => {
  const doc = fileURLToPath(new URL('../fixtures/openapi/train-travel-3.1.json', import.meta.url));
  const { url: openapi } = await startCli(cli, [doc, '--port', '0', '--log-level', 'warn'], dir);
  const tab = await browser.context.newPage();
  await tab.goto(pageUrl);
  const got = await tab.evaluate(async (url) => {
    // With credentials (the CLI allows them by default) a browser takes `*` literally: only the listed headers are readable.
    const res = await fetch(url, { method: 'POST', credentials: 'include', headers: { 'content-type': 'application/json', authorization: 'Bearer x' }, body: '{"trip_id":7}' });
    return { status: res.status, error: res.headers.get('mockyard-error'), type: ((await res.json()) as { type: string }).type };
  }, `${openapi}/bookings`);
  expect(got.status).toBe(400);
  expect(got.type).toBe('https://example.com/errors/bad-request');
  expect(got.error).toMatch(/^Request does not match the OpenAPI document: body\.trip_id must be string/);
  await tab.close();
});
