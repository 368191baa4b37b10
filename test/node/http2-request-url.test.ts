/**
 * Behind an HTTP/2 server (Vite's `server.https` is `http2.createSecureServer` with HTTP/1.1
 * allowed; a browser speaks h2 to it), a request carries no Host header, only `:authority`. The
 * request's URL is built from it: a handler reads the port the page is on, and a devtools page
 * on the server's own origin may write (the guard compares its Origin with the request's host).
 * Before, the URL fell back to the host name without the port (`https://localhost/…`), so the
 * page's own writes were refused 403 as another origin's. A real h2 server and client on 127.0.0.1.
 */
import { readFileSync } from 'node:fs';
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { memoryFs } from '../../src/index.js';
import { nodeHost } from '../../src/node/engines.js';
import { middlewareFor } from '../../src/node/middleware.js';

const key = readFileSync(new URL('../fixtures/tls/localhost.key', import.meta.url));
const cert = readFileSync(new URL('../fixtures/tls/localhost.crt', import.meta.url));
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

function h2(port: number, path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  const client = http2.connect(`https://localhost:${port}`, { ca: cert });
  return new Promise((resolve, reject) => {
    const req = client.request({ ':path': path, ...headers });
    let status = 0;
    let body = '';
    req.on('response', (h) => (status = Number(h[':status'])));
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      client.close();
      resolve({ status, body });
    });
    req.on('error', reject);
    req.end();
  });
}

it("a request over HTTP/2 has the :authority's host and port in its URL; the devtools page's own write passes the guard", async () => {
  // As the Vite plugin installs it on a loopback dev server (vite.ts): a host that knows it is local.
  const hostApp = await nodeHost({
    mock: { endpointPrefix: '/api', fs: memoryFs({ 'posts.json': [{ id: 1 }] }), handlers: [{ pattern: '/where', method: 'GET', handle: (req) => ({ url: req.url }) }], logLevel: 'silent' },
    local: true,
    server: { listen: 'localhost' },
  });
  const mw = middlewareFor(hostApp, { logLevel: 'silent', owned: [hostApp] });
  const server = http2.createSecureServer({ key, cert, allowHTTP1: true }, (req, res) => mw(req as never, res as never, () => { res.statusCode = 404; res.end(); }));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  cleanups.push(async () => {
    await new Promise((r) => server.close(r));
    await mw.close();
  });
  const port = (server.address() as AddressInfo).port;

  const where = await h2(port, '/api/where');
  expect(where.status).toBe(200);
  expect(JSON.parse(where.body).url).toBe(`https://localhost:${port}/api/where`);

  const own = await h2(port, '/_mockyard/api/reset', { ':method': 'POST', origin: `https://localhost:${port}` });
  expect(own.body).not.toContain('may not change');
  expect(own.status).toBe(200);
  const other = await h2(port, '/_mockyard/api/reset', { ':method': 'POST', origin: 'https://evil.example' });
  expect(other.status).toBe(403);
});
