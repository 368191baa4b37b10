/**
 * `mockyard/fetch` (src/fetch/index.ts): the engines as a standard fetch handler, the shape Deno,
 * Bun and Workers-style runtimes serve. Tested with plain WHATWG Requests and Responses only (no
 * server, no Node host code on the way), and, where a `deno` binary is available (DENO_BIN or on
 * PATH), served by Deno itself with the built package and called over real HTTP.
 */
import { spawn, spawnSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCollector } from '../../src/tracker/collector.js';
import { fetchHandler, type FetchHandler } from '../../src/fetch/index.js';
import { memoryFs } from '../../src/vfs/memory.js';
import { makeTempDir, removeTempDirs } from '../helpers/temp-dir.js';

const open: FetchHandler[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((a) => a.close()));
  await removeTempDirs();
});

function app(options: Parameters<typeof fetchHandler>[0]): FetchHandler {
  const a = fetchHandler(options);
  open.push(a);
  return a;
}

describe('fetchHandler: a standard fetch export', () => {
  it('answers files, writes, the collector and the JSON 404 with platform Responses', async () => {
    const a = app({
      mock: { endpointPrefix: '/api', fs: memoryFs({ 'users.json': [{ id: 1, name: 'Ada' }] }), logLevel: 'silent', preset: 'json-server' },
      tracker: { appId: 'edge', logLevel: 'silent' },
    });
    const list = await a.fetch(new Request('https://edge.example/api/users'));
    expect(list).toBeInstanceOf(Response);
    expect(Object.getPrototypeOf(list)).toBe(Response.prototype);
    expect(list.status).toBe(200);
    expect(await list.json()).toEqual([{ id: 1, name: 'Ada' }]);

    const created = await a.fetch(new Request('https://edge.example/api/users', { method: 'POST', body: JSON.stringify({ name: 'Grace' }), headers: { 'content-type': 'application/json' } }));
    expect(created.status).toBe(201);
    const item = await a.fetch(new Request('https://edge.example/api/users/2'));
    expect(await item.json()).toEqual({ id: 2, name: 'Grace' });

    const ping = await a.fetch(new Request('https://edge.example/_tracker/ping'));
    expect(ping.status).toBe(200);

    const missing = await a.fetch(new Request('https://edge.example/elsewhere', { method: 'GET' }));
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ status: 404, path: '/elsewhere' });
  });

  it('takes ready engines too, and leaves them open', async () => {
    const collector = createCollector({ appId: 'given', logLevel: 'silent' });
    const a = app({ engines: [collector] });
    expect((await a.fetch(new Request('http://x/_tracker/ping'))).status).toBe(200);
    await a.close();
    expect((await collector.handle(new Request('http://x/_tracker/ping')))!.status).toBe(200);
    await collector.close();
  });

  it('needs fs on the web-standard runtime: ready() rejects naming the option, requests get a 500', async () => {
    const a = app({ mock: { endpointPrefix: '/api', fsDir: 'mocks', logLevel: 'silent' } });
    await expect(a.ready()).rejects.toThrow(/mock\.fs/);
    const errors: unknown[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => void errors.push(args);
    try {
      const r = await a.fetch(new Request('http://x/api/anything'));
      expect(r.status).toBe(500);
    } finally {
      console.error = original;
    }
    expect(String(errors[0])).toMatch(/mock\.fs/);
  });
});

function denoBinary(): string | undefined {
  const candidates = [process.env.DENO_BIN, 'deno'].filter((c): c is string => !!c);
  for (const c of candidates) if (spawnSync(c, ['--version'], { stdio: 'ignore' }).status === 0) return c;
  return undefined;
}
const deno = denoBinary();

describe.skipIf(!deno)('on Deno (a real second runtime)', () => {
  it('Deno.serve(app.fetch) with the built package answers over HTTP', async () => {
    const dir = await makeTempDir();
    const dist = resolve(import.meta.dirname, '../../dist');
    const script = join(dir, 'server.mjs');
    await writeFile(
      script,
      [
        `import { fetchHandler } from ${JSON.stringify(join(dist, 'fetch/index.js'))};`,
        `import { memoryFs } from ${JSON.stringify(join(dist, 'vfs/memory.js'))};`,
        "const app = fetchHandler({ mock: { endpointPrefix: '/api', fs: memoryFs({ 'hello.json': { from: 'deno' } }), logLevel: 'silent' } });",
        "Deno.serve({ port: 0, hostname: '127.0.0.1', onListen: ({ port }) => console.log(`port ${port}`) }, app.fetch);",
      ].join('\n'),
    );
    const child = spawn(deno!, ['run', '--node-modules-dir=manual', '--allow-net=127.0.0.1', '--allow-read', '--allow-env', '--allow-sys', script], { cwd: resolve(dist, '..'), stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const port = await new Promise<number>((done, fail) => {
        let out = '';
        let err = '';
        child.stdout.on('data', (d) => {
          out += d;
          const m = /port (\d+)/.exec(out);
          if (m) done(Number(m[1]));
        });
        child.stderr.on('data', (d) => (err += d));
        child.on('exit', (code) => fail(new Error(`deno exited (${code}): ${err}`)));
      });
      const r = await fetch(`http://127.0.0.1:${port}/api/hello`);
      expect(r.status).toBe(200);
      expect(await r.json()).toEqual({ from: 'deno' });
      expect((await fetch(`http://127.0.0.1:${port}/nothing`)).status).toBe(404);
    } finally {
      child.kill();
    }
  });
});
