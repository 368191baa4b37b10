/**
 * The devtools guard (src/devtools/guard.ts) through a real node:http server: requests whose Host
 * is not one of the server's names are refused (DNS rebinding), state-changing requests from
 * another origin are refused — simple ones included (text/plain POST, no preflight) — and the
 * server's own pages, allowed origins and the bearer token pass. Every refusal is the JSON error
 * body naming the option to set. The last test runs the built CLI (npm run build first).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { memoryFs } from '../../src/vfs/memory.js';
import type { MockApiOptions } from '../../src/engine/mock-api-options.js';
import { createMiddleware } from '../../src/node/middleware.js';
import { closeServers, rawRequest, startServer } from '../helpers/server.js';
import { createServer } from 'node:http';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startCli, stopCliProcesses } from '../helpers/cli-process.js';
import { makeTempDir, removeTempDirs } from '../helpers/temp-dir.js';

afterEach(closeServers);

const A = '/_mockyard/api';

function mock(extra: Partial<MockApiOptions> = {}): MockApiOptions {
  return { endpointPrefix: '/api', logLevel: 'silent', fs: memoryFs({ 'users.json': '[{"id":1}]' }), ...extra };
}

async function touched(url: string): Promise<void> {
  const put = await fetch(`${url}/api/users`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '[{"id":1},{"id":2}]' });
  expect(put.status).toBe(200);
}
const users = async (url: string) => (await (await fetch(`${url}/api/users`)).json()) as unknown[];

describe('Host rule (DNS rebinding)', () => {
  it('refuses a forged Host with a 403 naming devtools.allowedHosts; loopback names and IPs pass', async () => {
    const s = await startServer({ mock: mock() });
    const forged = await rawRequest(s.url, { path: `${A}/requests`, headers: { host: 'evil.example' } });
    expect(forged.status).toBe(403);
    expect(forged.headers['content-type']).toBe('application/json; charset=utf-8');
    const body = JSON.parse(forged.body.toString());
    expect(body).toMatchObject({ status: 403, error: 'FORBIDDEN', option: 'devtools.allowedHosts', path: `${A}/requests` });
    expect(body.message).toContain('"evil.example"');
    expect(body.message).toContain('devtools.allowedHosts');
    // with a port, and the page too (a rebinding page would load the devtools as its own)
    expect((await rawRequest(s.url, { path: `${A}/requests`, headers: { host: `evil.example:${s.port}` } })).status).toBe(403);
    expect((await rawRequest(s.url, { path: '/_mockyard/', headers: { host: `evil.example:${s.port}` } })).status).toBe(403);
    expect((await rawRequest(s.url, { method: 'POST', path: `${A}/reset`, headers: { host: 'evil.example', 'content-type': 'text/plain' }, body: 'x' })).status).toBe(403);
    for (const host of ['localhost', `localhost:${s.port}`, `app.localhost:${s.port}`, `127.0.0.1:${s.port}`, `[::1]:${s.port}`, '192.168.1.20']) {
      expect({ host, status: (await rawRequest(s.url, { path: `${A}/requests`, headers: { host } })).status }).toEqual({ host, status: 200 });
    }
    // The mock API itself is not the devtools: a forged Host still reaches it (as before).
    expect((await rawRequest(s.url, { path: '/api/users', headers: { host: 'evil.example' } })).status).toBe(200);
  });

  it('devtools.allowedHosts adds names (".example.test" takes its subdomains); true takes any', async () => {
    const s = await startServer({ mock: mock(), devtools: { allowedHosts: ['my-box.lan', '.example.test'] } });
    for (const host of ['my-box.lan', 'example.test', 'a.example.test:80']) expect((await rawRequest(s.url, { path: `${A}/requests`, headers: { host } })).status).toBe(200);
    expect((await rawRequest(s.url, { path: `${A}/requests`, headers: { host: 'other.lan' } })).status).toBe(403);
    const any = await startServer({ mock: mock(), devtools: { allowedHosts: true } });
    expect((await rawRequest(any.url, { path: `${A}/requests`, headers: { host: 'other.lan' } })).status).toBe(200);
    await expect(startServer({ mock: mock(), devtools: { allowedHosts: ['http://x'] } })).rejects.toThrow(/devtools\.allowedHosts/);
  });

  it('the listen address is one of the server names', async () => {
    const s = await startServer({ mock: mock(), host: 'localhost' });
    expect((await rawRequest(s.url, { path: `${A}/requests`, headers: { host: 'localhost' } })).status).toBe(200);
  });

  it('middleware follows the same rule (its server names: loopback, IPs, devtools.allowedHosts)', async () => {
    const mw = await createMiddleware({ mock: mock(), devtools: { token: 'tok-0123456789abcdef', allowedHosts: ['dev.lan'] }, logLevel: 'silent' });
    const server = createServer((req, res) => mw(req, res, () => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html>')));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    try {
      const auth = { authorization: 'Bearer tok-0123456789abcdef' };
      expect((await rawRequest(url, { path: `${A}/requests`, headers: { ...auth, host: 'evil.example' } })).status).toBe(403);
      expect((await rawRequest(url, { path: `${A}/requests`, headers: { ...auth, host: 'dev.lan' } })).status).toBe(200);
    } finally {
      await mw.close();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('Origin rule (cross-site writes)', () => {
  it('a simple cross-origin POST (text/plain, no preflight) does not reset; 403 naming devtools.allowedOrigins', async () => {
    const s = await startServer({ mock: mock() });
    await touched(s.url);
    const res = await fetch(`${s.url}${A}/reset`, { method: 'POST', headers: { origin: 'http://evil.example', 'content-type': 'text/plain' }, body: 'x' });
    expect(res.status).toBe(403);
    const body = (await res.json()) as { option: string; message: string };
    expect(body.option).toBe('devtools.allowedOrigins');
    expect(body.message).toContain('http://evil.example');
    expect(await users(s.url)).toHaveLength(2); // not reset
    // Sec-Fetch-Site: cross-site without an Origin (a form post in some browsers) is refused too
    expect((await fetch(`${s.url}${A}/reset`, { method: 'POST', headers: { 'sec-fetch-site': 'cross-site' } })).status).toBe(403);
    // Origin: null (sandboxed frames, file://) is another origin
    expect((await fetch(`${s.url}${A}/reset`, { method: 'POST', headers: { origin: 'null' } })).status).toBe(403);
    // a cross-origin DELETE of the journal, a scenario switch, a session write: all refused
    expect((await fetch(`${s.url}${A}/requests`, { method: 'DELETE', headers: { origin: 'http://evil.example' } })).status).toBe(403);
    expect((await fetch(`${s.url}${A}/scenario`, { method: 'PUT', headers: { origin: 'http://localhost:5173' }, body: '{"name":null}' })).status).toBe(403);
    expect((await fetch(`${s.url}${A}/sessions`, { method: 'POST', headers: { origin: 'http://evil.example', 'content-type': 'text/plain' }, body: '{}' })).status).toBe(403);
    expect(await users(s.url)).toHaveLength(2);
  });

  it('the server\'s own pages, tools without an Origin, allowed origins and the token pass', async () => {
    const s = await startServer({ mock: mock({ cors: { origins: ['https://listed.example'] } }), devtools: { allowedOrigins: ['http://localhost:5173'] } });
    await touched(s.url);
    const own = new URL(s.url).origin;
    expect((await fetch(`${s.url}${A}/reset`, { method: 'POST', headers: { origin: own, 'sec-fetch-site': 'same-origin' } })).status).toBe(200);
    expect(await users(s.url)).toHaveLength(1);
    expect((await fetch(`${s.url}${A}/reset`, { method: 'POST' })).status).toBe(200); // curl, the Playwright fixture
    expect((await fetch(`${s.url}${A}/reset`, { method: 'POST', headers: { origin: 'http://localhost:5173' } })).status).toBe(200);
    expect((await fetch(`${s.url}${A}/reset`, { method: 'POST', headers: { origin: 'https://listed.example' } })).status).toBe(200); // mock.cors's list
    // a wildcard CORS lets pages read the mocks, not reset them
    const wild = await startServer({ mock: mock({ cors: { origins: '*' } }) });
    expect((await fetch(`${wild.url}${A}/reset`, { method: 'POST', headers: { origin: 'https://any.example' } })).status).toBe(403);
    // reads from another origin are left to CORS (none here: the browser hides the answer)
    expect((await fetch(`${s.url}${A}/requests`, { headers: { origin: 'http://evil.example' } })).status).toBe(200);
    const token = 'tok-0123456789abcdef';
    const t = await startServer({ mock: mock(), devtools: { token } });
    expect((await fetch(`${t.url}${A}/reset`, { method: 'POST', headers: { origin: 'http://evil.example', authorization: `Bearer ${token}` } })).status).toBe(200);
    expect((await fetch(`${t.url}${A}/reset`, { method: 'POST', headers: { origin: 'http://evil.example' } })).status).toBe(401);
    await expect(startServer({ mock: mock(), devtools: { allowedOrigins: ['not an origin'] } })).rejects.toThrow(/devtools\.allowedOrigins/);
  });
});

describe('devtools off on a node host', () => {
  it('answers JSON naming the option instead of falling through', async () => {
    const off = await startServer({ mock: mock(), host: '0.0.0.0' });
    const port = new URL(off.url).port;
    const res = await fetch(`http://127.0.0.1:${port}${A}/requests`);
    expect(res.status).toBe(404);
    const body = (await res.json()) as { option: string; message: string };
    expect(body.option).toBe('devtools');
    expect(body.message).toMatch(/devtools: \{ token/);
    const disabled = await startServer({ mock: mock(), devtools: false });
    expect(((await (await fetch(`${disabled.url}${A}/requests`)).json()) as { message: string }).message).toContain('devtools: false');
  });
});

describe('the built CLI (where the issue was measured)', () => {
  it('mockyard db.json: a text/plain cross-origin POST is refused, a forged Host reads no journal', async () => {
    const dir = await makeTempDir();
    try {
      await writeFile(join(dir, 'db.json'), '{"posts":[{"id":1}]}');
      const cli = await startCli(fileURLToPath(new URL('../../dist/node/cli.js', import.meta.url)), ['db.json', '--port', '0', '--quiet'], dir);
      const reset = await fetch(`${cli.url}${A}/reset`, { method: 'POST', headers: { origin: 'http://evil.example', 'content-type': 'text/plain' }, body: 'x' });
      expect(reset.status).toBe(403);
      expect(((await reset.json()) as { option: string }).option).toBe('devtools.allowedOrigins');
      const read = await rawRequest(cli.url, { path: `${A}/requests`, headers: { host: 'evil.example' } });
      expect(read.status).toBe(403);
      expect(JSON.parse(read.body.toString()).option).toBe('devtools.allowedHosts');
      expect((await fetch(`${cli.url}${A}/requests`)).status).toBe(200); // the developer's own tools
    } finally {
      await stopCliProcesses();
      await removeTempDirs();
    }
  });
});
