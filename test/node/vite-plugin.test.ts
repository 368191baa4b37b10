/**
 * The Vite plugin on a real Vite dev server (and `vite preview`): the devtools follow Vite's host
 * rule (its `host`, `allowedHosts`) and the guard's Origin rule; the admin API always answers JSON
 * (never Vite's SPA index.html).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createServer as createViteServer, type InlineConfig, type ViteDevServer } from 'vite';
import { afterEach, describe, expect, it } from 'vitest';
import { mockyard } from '../../src/node/vite.js';
import { memoryFs } from '../../src/vfs/memory.js';
import { rawRequest } from '../helpers/server.js';
import { makeTempDir, removeTempDirs } from '../helpers/temp-dir.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((c) => c()));
  await removeTempDirs();
});

const A = '/_mockyard/api';

async function startVite(server: InlineConfig['server'], plugin: Parameters<typeof mockyard>[0] = {}): Promise<{ url: string; port: number; vite: ViteDevServer }> {
  const root = await makeTempDir();
  await mkdir(join(root, 'mocks'), { recursive: true });
  await writeFile(join(root, 'index.html'), '<!doctype html><title>app</title>');
  const vite = await createViteServer({
    root,
    configFile: false,
    logLevel: 'silent',
    appType: 'spa',
    server: { port: 0, strictPort: false, ...server },
    plugins: [mockyard({ mock: { endpointPrefix: '/api', fs: memoryFs({ 'users.json': '[{"id":1}]' }), logLevel: 'silent' }, logLevel: 'silent', ...plugin })],
  });
  cleanups.push(() => vite.close());
  await vite.listen();
  const port = (vite.httpServer!.address() as AddressInfo).port;
  return { url: `http://127.0.0.1:${port}`, port, vite };
}

describe('devtools under the Vite plugin', () => {
  it('on by default on a loopback Vite; a cross-origin simple POST cannot reset', async () => {
    const { url } = await startVite({ host: '127.0.0.1' });
    const read = await fetch(`${url}${A}/requests`);
    expect(read.status).toBe(200);
    expect(read.headers.get('content-type')).toBe('application/json; charset=utf-8');
    await fetch(`${url}/api/users`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '[{"id":1},{"id":2}]' });
    const evil = await fetch(`${url}${A}/reset`, { method: 'POST', headers: { origin: 'http://evil.example', 'content-type': 'text/plain' }, body: 'x' });
    expect(evil.status).toBe(403);
    expect(((await evil.json()) as { option: string }).option).toBe('devtools.allowedOrigins');
    expect(((await (await fetch(`${url}/api/users`)).json()) as unknown[]).length).toBe(2);
    expect((await fetch(`${url}${A}/reset`, { method: 'POST', headers: { origin: url } })).status).toBe(200);
  });

  it('follows Vite\'s server.allowedHosts: a listed name passes, another is refused', async () => {
    const { url } = await startVite({ host: '127.0.0.1', allowedHosts: ['dev.lan'] });
    expect((await rawRequest(url, { path: `${A}/requests`, headers: { host: 'dev.lan' } })).status).toBe(200);
    expect((await rawRequest(url, { path: `${A}/requests`, headers: { host: 'evil.example' } })).status).toBe(403);
  });

  it('off on a Vite listening on every address without a token: JSON naming the option, not index.html', async () => {
    const { port } = await startVite({ host: '0.0.0.0' });
    const res = await fetch(`http://127.0.0.1:${port}${A}/sessions/abc`, { method: 'DELETE' });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const body = (await res.json()) as { option: string; message: string };
    expect(body.option).toBe('devtools');
    expect(body.message).toContain('devtools: { token');
    // with a token it is on, and the token is required
    const token = 'tok-0123456789abcdef';
    const on = await startVite({ host: '0.0.0.0' }, { devtools: { token } });
    const base = `http://127.0.0.1:${on.port}${A}`;
    expect((await fetch(`${base}/requests`)).status).toBe(401);
    expect((await fetch(`${base}/requests`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
  });
});

describe('the plugin in Vite\'s log and under vite preview', () => {
  it('prints what it serves and where the devtools are into Vite\'s log', async () => {
    const lines: string[] = [];
    const root = await makeTempDir();
    await writeFile(join(root, 'index.html'), '<!doctype html><title>app</title>');
    const log = (m: string) => void lines.push(m);
    const vite = await createViteServer({
      root,
      configFile: false,
      customLogger: { info: log, warn: log, warnOnce: log, error: log, clearScreen: () => {}, hasErrorLogged: () => false, hasWarned: false },
      server: { port: 0, host: '127.0.0.1' },
      plugins: [mockyard({ mock: { endpointPrefix: '/api', fsDir: 'mocks' }, tracker: true })],
    });
    cleanups.push(() => vite.close());
    await vite.listen();
    const port = (vite.httpServer!.address() as AddressInfo).port;
    expect(lines).toEqual(
      expect.arrayContaining([
        `[mockyard] devtools at http://127.0.0.1:${port}/_mockyard/ (admin API at /_mockyard/api/)`,
        `[mockyard] event collector at http://127.0.0.1:${port}/_tracker`,
        `[mockyard] mock API at http://127.0.0.1:${port}/api (files in mocks)`,
      ]),
    );
    expect(lines.some((l) => l.includes('GraphQL'))).toBe(false); // off in file mode
  });

  it('names the GraphQL endpoint the json-server preset serves, at the URL that answers', async () => {
    const lines: string[] = [];
    const root = await makeTempDir();
    await writeFile(join(root, 'index.html'), '<!doctype html><title>app</title>');
    const log = (m: string) => void lines.push(m);
    const vite = await createViteServer({
      root,
      configFile: false,
      customLogger: { info: log, warn: log, warnOnce: log, error: log, clearScreen: () => {}, hasErrorLogged: () => false, hasWarned: false },
      server: { port: 0, host: '127.0.0.1' },
      plugins: [mockyard({ mock: { endpointPrefix: '/api', preset: 'json-server', fs: memoryFs({ 'posts.json': '[{"id":1,"title":"a"}]' }) } })],
    });
    cleanups.push(() => vite.close());
    await vite.listen();
    const port = (vite.httpServer!.address() as AddressInfo).port;
    const url = `http://127.0.0.1:${port}/api/graphql`;
    expect(lines).toContain(`[mockyard] GraphQL at ${url}`);
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query":"{ allPosts { title } }"}' });
    expect(await res.json()).toEqual({ data: { allPosts: [{ title: 'a' }] } });
  });

  it('serves the mocks under vite preview by default; preview: false leaves the preview server alone', async () => {
    const { preview } = await import('vite');
    const root = await makeTempDir();
    await mkdir(join(root, 'dist'), { recursive: true });
    await writeFile(join(root, 'dist', 'index.html'), '<!doctype html><title>built</title>');
    const start = async (plugin: Parameters<typeof mockyard>[0]) => {
      const server = await preview({ root, configFile: false, logLevel: 'silent', preview: { port: 0, host: '127.0.0.1' }, plugins: [mockyard(plugin)] });
      cleanups.push(() => server.close());
      return `http://127.0.0.1:${(server.httpServer.address() as AddressInfo).port}`;
    };
    const mock = { endpointPrefix: '/api', fs: memoryFs({ 'users.json': '[{"id":1}]' }), logLevel: 'silent' as const };
    const on = await start({ mock, logLevel: 'silent' });
    expect(await (await fetch(`${on}/api/users`)).json()).toEqual([{ id: 1 }]);
    const off = await start({ mock, logLevel: 'silent', preview: false });
    const res = await fetch(`${off}/api/users`);
    expect(res.headers.get('content-type')).toContain('text/html'); // Vite's own SPA fallback
    expect(() => mockyard({ preview: 'no' as unknown as boolean })).toThrow(/preview/);
  });
});
