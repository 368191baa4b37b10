/**
 * `mockyard --har FILE` and `mock.har` serve a HAR log a real browser wrote
 * (test/fixtures/har/chromium-recordhar.har: Chromium through playwright-core's recordHar, see
 * make-chromium-har.mjs next to it): through the built CLI as a real process, and with the HAR
 * object in the hosts that have no files (interceptFetch, handlersFor in the app's msw server).
 * Matching as Playwright's routeFromHAR (method + URL, post data for writes), the query in any
 * parameter order; bodies compressed on the wire (Content-Encoding: gzip in the log) and base64
 * bodies decoded; a malformed log stops the start with a message.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { copyFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setupServer } from 'msw/node';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createMockApi } from '../../src/engine/create-mock-api.js';
import { handlersFor } from '../../src/msw/index.js';
import { createMiddleware } from '../../src/node/middleware.js';
import { interceptFetch } from '../../src/test/index.js';
import { compileSources } from '../helpers/built-src.js';
import { startCli, stopCliProcesses } from '../helpers/cli-process.js';
import { makeTempDir, removeTempDirs } from '../helpers/temp-dir.js';

const FIXTURE = join(import.meta.dirname, '..', 'fixtures', 'har', 'chromium-recordhar.har');
const HAR = JSON.parse(readFileSync(FIXTURE, 'utf8'));
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
const json = { 'content-type': 'application/json' };

let cli: string;
beforeAll(() => {
  cli = join(compileSources('har-serve'), 'node', 'cli.js');
}, 120_000);

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  await stopCliProcesses();
  await removeTempDirs();
});

/** What the browser saw, answered again by whatever host serves the HAR. */
async function replay(api: string): Promise<void> {
  const page = await fetch(`${api}/items?page=1&size=2`); // recorded as ?size=2&page=1
  expect(page.status).toBe(200);
  expect(page.headers.get('x-total-count')).toBe('5');
  expect(page.headers.get('cache-control')).toBe('no-store');
  expect(page.headers.get('content-encoding')).toBeNull();
  expect(await page.json()).toEqual([{ id: 1, title: 'buy milk', done: false }, { id: 2, title: 'call mum', done: true }]);

  const missing = await fetch(`${api}/items/99`);
  expect(missing.status).toBe(404);
  expect(await missing.json()).toEqual({ error: 'no item 99' });

  const created = await fetch(`${api}/items`, { method: 'POST', headers: json, body: JSON.stringify({ done: false, title: 'write tests' }) });
  expect(created.status).toBe(201);
  expect(created.headers.get('location')).toBe('/api/items/3');
  expect(await created.json()).toEqual({ id: 3, title: 'write tests', done: false });
  const other = await fetch(`${api}/items`, { method: 'POST', headers: json, body: JSON.stringify({ title: 'something else' }) });
  expect(other.status).toBe(404);
  expect(((await other.json()) as { recorded: string[] }).recorded).toEqual(['POST /api/items (with a recorded body)', 'GET /api/items?page=1&size=2']);

  const put = await fetch(`${api}/items/1`, { method: 'PUT', headers: json, body: JSON.stringify({ id: 1, title: 'buy milk', done: true }) });
  expect(put.headers.get('x-version')).toBe('2');
  expect((await fetch(`${api}/items/2`, { method: 'DELETE' })).status).toBe(204);

  const logo = await fetch(`${api}/logo.png`);
  expect(logo.headers.get('content-type')).toBe('image/png');
  expect(Buffer.from(await logo.arrayBuffer())).toEqual(PNG);

  const moved = await fetch(`${api}/old`, { redirect: 'manual' });
  expect(moved.status).toBe(302);
  expect(moved.headers.get('location')).toBe('/api/items?size=2&page=1');
}

describe('a HAR written by Chromium (playwright-core recordHar)', () => {
  it('mockyard --har serves it at the recorded paths: statuses, headers, bodies as the browser got them, the page at / too', async () => {
    const dir = await makeTempDir();
    await copyFile(FIXTURE, join(dir, 'traffic.har'));
    const { url, output } = await startCli(cli, ['--har', 'traffic.har', '--port', '0', '--log-level', 'warn'], dir);
    expect(output()).toContain(`${url}  →  the HAR log traffic.har`);
    await replay(`${url}/api`);
    expect(await (await fetch(`${url}/`)).text()).toContain('<title>calling</title>'); // the recorded page, where it was recorded
  });

  it('with a prefix, the entries outside it are left out and the start-up says how many, naming --prefix', async () => {
    const dir = await makeTempDir();
    await copyFile(FIXTURE, join(dir, 'traffic.har'));
    const { url, output } = await startCli(cli, ['--har', 'traffic.har', '--prefix', '/api', '--port', '0', '--log-level', 'warn'], dir);
    await replay(`${url}/api`);
    expect(output()).toMatch(/har: 1 of \d+ entries are outside the prefix \/api and are not served \(.*--prefix \/\)/);
  });

  it('answers that named the recorded server (Link, Location, absolute URLs in the body) name the mock', async () => {
    const dir = await makeTempDir();
    const upstream = 'https://api.example.com';
    const entry = (path: string, status: number, headers: { name: string; value: string }[], text: string) => ({
      request: { method: 'GET', url: `${upstream}${path}`, headers: [] },
      response: { status, headers: [{ name: 'content-type', value: 'application/json' }, ...headers], content: { mimeType: 'application/json', text } },
    });
    await writeFile(join(dir, 'site.har'), JSON.stringify({ log: { entries: [
      entry('/v1/users', 200, [{ name: 'link', value: `<${upstream}/v1/users?page=2>; rel="next"` }], JSON.stringify({ next: `${upstream}/v1/users?page=2`, items: [] }).replace(/\//g, '\\/')),
      entry('/v1/users?page=2', 200, [], JSON.stringify({ items: [{ id: 3, self: `${upstream}/v1/users/3` }] })),
      entry('/v1/moved', 301, [{ name: 'location', value: `${upstream}/v1/users` }], ''),
    ] } }));
    const { url } = await startCli(cli, ['--har', 'site.har', '--port', '0', '--log-level', 'warn'], dir);
    const first = await fetch(`${url}/v1/users`);
    const link = first.headers.get('link')!;
    expect(link).toBe(`<${url}/v1/users?page=2>; rel="next"`);
    expect(await first.json()).toEqual({ next: `${url}/v1/users?page=2`, items: [] });
    const next = await fetch(link.slice(1, link.indexOf('>')));
    expect(await next.json()).toEqual({ items: [{ id: 3, self: `${url}/v1/users/3` }] });
    const moved = await fetch(`${url}/v1/moved`, { redirect: 'manual' });
    expect(moved.headers.get('location')).toBe(`${url}/v1/users`);
  });

  it('mock.har as the object in interceptFetch and in handlersFor (the app\'s own msw server)', async () => {
    const a = createMockApi({ endpointPrefix: '/api', fsDir: null, logLevel: 'silent', har: HAR });
    const mocked = interceptFetch(a, { baseUrl: 'http://app.test' });
    cleanups.push(() => a.close(), () => mocked.restore());
    await replay('http://app.test/api');
    mocked.restore();

    const b = createMockApi({ endpointPrefix: '/api', fsDir: null, logLevel: 'silent', har: HAR });
    const server = setupServer(...handlersFor(b, { baseUrl: 'http://api.test' }));
    server.listen({ onUnhandledRequest: 'error' });
    cleanups.push(() => b.close(), () => server.close());
    await replay('http://api.test/api');
  });

  it('mock.har as a file path in the connect/Vite middleware (read at start-up by Node\'s runtime)', async () => {
    const mw = await createMiddleware({ mock: { endpointPrefix: '/api', fsDir: null, logLevel: 'silent', har: FIXTURE } });
    const http = createServer((req, res) => mw(req, res, () => res.writeHead(418).end()));
    await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
    cleanups.push(() => mw.close?.(), () => new Promise((r) => http.close(r)));
    await replay(`http://127.0.0.1:${(http.address() as AddressInfo).port}/api`);
  });
});

function runToExit(args: string[], cwd: string): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.once('exit', (code) => resolve({ code, out }));
  });
}

describe('a malformed HAR', () => {
  it('stops the start with a message naming the file or the faulty field', async () => {
    const dir = await makeTempDir();
    await writeFile(join(dir, 'broken.har'), '{"log": {"entries": [');
    await writeFile(join(dir, 'not-a-log.har'), '{"entries": []}');
    await writeFile(join(dir, 'bad-entry.har'), JSON.stringify({ log: { entries: [{ request: { method: 'GET', url: '/relative' }, response: { status: 200 } }] } }));
    const broken = await runToExit(['--har', 'broken.har', '--port', '0'], dir);
    expect(broken.code).not.toBe(0);
    expect(broken.out).toMatch(/mock\.har.*the HAR file \S*broken\.har is not JSON/);
    expect((await runToExit(['--har', 'missing.har', '--port', '0'], dir)).out).toMatch(/cannot read the HAR file \S*missing\.har: ENOENT/);
    expect((await runToExit(['--har', 'not-a-log.har', '--port', '0'], dir)).out).toMatch(/mock\.har.*is not a HAR log: it needs \{ "log": \{ "entries"/);
    expect((await runToExit(['--har', 'bad-entry.har', '--port', '0'], dir)).out).toMatch(/log\.entries\[0\]\.request\.url must be an absolute URL/);
  });
});
