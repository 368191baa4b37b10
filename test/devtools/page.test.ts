/**
 * The devtools page at /_mockyard/ through a real node:http server: the redirect to the slash
 * form, the HTML shell (strict CSP, no inline script), the prebuilt bundle, 404/405, the guard
 * (a token protects the API, not the data-free page; devtools off → no page).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { memoryFs } from '../../src/vfs/memory.js';
import { closeServers, startServer } from '../helpers/server.js';

afterEach(closeServers);

const mock = () => ({ endpointPrefix: '/api', logLevel: 'silent' as const, fs: memoryFs({ 'users.json': '[]' }), fsDir: '/' });

describe('devtools page', () => {
  it('redirects /_mockyard to /_mockyard/ and serves the shell with a strict CSP', async () => {
    const s = await startServer({ mock: mock(), tracker: true });
    const redirect = await fetch(`${s.url}/_mockyard?x=1`, { redirect: 'manual' });
    expect(redirect.status).toBe(308);
    expect(redirect.headers.get('location')).toBe('/_mockyard/?x=1');
    const res = await fetch(`${s.url}/_mockyard/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const html = await res.text();
    expect(html).toContain('data-mockyard-devtools="page"');
    const [, js] = /<script type="module" src="(assets\/page\.js\?v=\w+)"><\/script>/.exec(html)!;
    const [, css] = /href="(assets\/page\.css\?v=\w+)"/.exec(html)!;
    expect(/<script>/.test(html)).toBe(false); // no inline script
    const script = await fetch(`${s.url}/_mockyard/${js}`);
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(script.headers.get('cache-control')).toContain('immutable');
    expect(await script.text()).toMatch(/export\s*\{[^}]*\bmount\b/);
    const style = await fetch(`${s.url}/_mockyard/${css}`);
    expect(style.headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect(await style.text()).toContain('prefers-color-scheme:dark');
  });

  it('answers HEAD, refuses other methods (405) and unknown assets (404) with the error body', async () => {
    const s = await startServer({ mock: mock() });
    const head = await fetch(`${s.url}/_mockyard/`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(Number(head.headers.get('content-length'))).toBeGreaterThan(100);
    const post = await fetch(`${s.url}/_mockyard/`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    const missing = await fetch(`${s.url}/_mockyard/assets/other.js`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ status: 404, path: '/_mockyard/assets/other.js' });
  });

  it('with a token: the page loads without it, the API still needs it', async () => {
    const token = 'tok-0123456789abcdef';
    const s = await startServer({ mock: mock(), host: '0.0.0.0', devtools: { token } });
    const base = `http://127.0.0.1:${new URL(s.url).port}/_mockyard`;
    expect((await fetch(`${base}/`)).status).toBe(200);
    expect((await fetch(`${base}/api/requests`)).status).toBe(401);
  });

  it('devtools off: no page', async () => {
    const s = await startServer({ mock: mock(), devtools: false });
    expect((await fetch(`${s.url}/_mockyard/`)).status).toBe(404);
    const off = await startServer({ mock: mock(), host: '0.0.0.0' });
    expect((await fetch(`http://127.0.0.1:${new URL(off.url).port}/_mockyard/`)).status).toBe(404);
  });
});
