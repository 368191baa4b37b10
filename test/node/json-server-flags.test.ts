/**
 * json-server 0.17's command line accepted by `mockyard` with json-server's meaning
 * (src/node/json-server-flags.ts): the package.json script of json-server's README with only the
 * command replaced, each flag and alias, `json-server.json`, data files other than .json, and
 * "did you mean" for a flag neither knows.
 */
import { spawn } from 'node:child_process';
import { chmodSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { compileSources } from '../helpers/built-src.js';
import { runCli, stopClis } from '../helpers/cli-run.js';
import { makeTempDir, removeTempDirs } from '../helpers/temp-dir.js';

const DB = {
  posts: [{ id: 1, title: 'json-server', author: 'typicode', category: 'javascript' }, { id: 2, title: 'other', author: 'bob', category: 'iot' }],
  comments: [{ id: 1, body: 'some comment', postId: 1 }],
  profile: { name: 'typicode' },
};

afterEach(async () => {
  await stopClis();
  await removeTempDirs();
});

async function folder(files: Record<string, string> = {}): Promise<string> {
  const dir = await makeTempDir();
  await writeFile(join(dir, 'db.json'), JSON.stringify(DB, null, 2));
  for (const [name, text] of Object.entries(files)) {
    await mkdir(join(dir, name, '..'), { recursive: true });
    await writeFile(join(dir, name), text);
  }
  return dir;
}

function urlOf(out: string): string {
  return /listening on (http:\/\/\S+)/.exec(out)![1]!;
}

function freePort(): Promise<number> {
  return new Promise((res) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => res(port));
    });
  });
}

describe('a package.json script written for json-server', () => {
  let cli: string;
  beforeAll(() => {
    cli = join(compileSources('json-server-flags'), 'node', 'cli.js');
  }, 120_000);

  it('`json-server --watch db.json --port N --routes routes.json --static ./public` works with `mockyard` in its place', async () => {
    const port = await freePort();
    const dir = await folder({
      'routes.json': JSON.stringify({ '/api/*': '/$1', '/:resource/:id/show': '/:resource/:id' }),
      'public/index.html': '<h1>app</h1>',
      'bin/mockyard': `#!/bin/sh\nexec "${process.execPath}" "${cli}" "$@"\n`,
    });
    chmodSync(join(dir, 'bin', 'mockyard'), 0o755);
    const script = `json-server --watch db.json --port ${port} --routes routes.json --static ./public`.replace(/^json-server/, 'mockyard');
    await writeFile(join(dir, 'package.json'), JSON.stringify({ name: 'app', private: true, scripts: { mock: script } }));
    const child = spawn('npm', ['run', '--silent', 'mock'], { cwd: dir, env: { ...process.env, PATH: `${join(dir, 'bin')}:${process.env.PATH}` }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let out = '';
    try {
      await new Promise<void>((res, rej) => {
        const on = (d: Buffer) => {
          out += d;
          if (out.includes('Press Ctrl+C')) res();
        };
        child.stdout!.on('data', on);
        child.stderr!.on('data', on);
        child.once('exit', (code) => rej(new Error(`exited ${code}: ${out}`)));
      });
      const base = `http://127.0.0.1:${port}`;
      expect(out).toContain('--watch: mockyard always watches');
      expect(await (await fetch(`${base}/posts/1`)).json()).toEqual(DB.posts[0]);
      expect(await (await fetch(`${base}/api/posts/1`)).json()).toEqual(DB.posts[0]);
      expect(await (await fetch(`${base}/posts/2/show`)).json()).toEqual(DB.posts[1]);
      const created = await fetch(`${base}/api/comments`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ body: 'via the rewrite', postId: 2 }) });
      expect(created.status).toBe(201);
      expect(await (await fetch(`${base}/api/comments?postId=2`)).json()).toEqual([{ id: 2, body: 'via the rewrite', postId: 2 }]);
      const page = await fetch(`${base}/index.html`);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(await page.text()).toBe('<h1>app</h1>');
    } finally {
      process.kill(-child.pid!, 'SIGTERM');
      await new Promise((res) => (child.exitCode !== null ? res(null) : child.once('exit', res)));
    }
  }, 60_000);
});

describe("json-server's flags", () => {
  it('short letters and aliases: -p -H -d -q --nc --ro -i -s -r; --no-gzip and --snapshots say why they do nothing', async () => {
    const dir = await folder({
      'routes.json': JSON.stringify({ '/blog/:id': '/posts/:id' }),
      'assets/a.txt': 'hello',
      'ids.json': JSON.stringify({ things: [{ _id: 'x', name: 'thing' }] }),
    });
    const r = await runCli(['db.json', '-p', '0', '-H', '127.0.0.1', '-d', '0', '--nc', '--ro', '-s', 'assets', '-r', 'routes.json', '--ng', '-S', 'snaps'], dir);
    const url = urlOf(r.out);
    expect(r.out).toContain('--no-gzip: mockyard does not compress answers');
    expect(r.out).toContain('--snapshots: mockyard takes no snapshots');
    expect(await (await fetch(`${url}/blog/2`)).json()).toEqual(DB.posts[1]);
    expect(await (await fetch(`${url}/a.txt`)).text()).toBe('hello');
    const refused = await fetch(`${url}/posts`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(refused.status).toBe(403);
    expect((await refused.json()).message).toMatch(/read-only/);
    const pre = await fetch(`${url}/posts`, { method: 'OPTIONS', headers: { Origin: 'http://localhost:5173', 'Access-Control-Request-Method': 'GET' } });
    expect(pre.headers.get('access-control-allow-origin')).toBeNull(); // --nc = --no-cors

    const ids = await runCli(['ids.json', '--port=0', '-i', '_id', '-q'], dir);
    expect(ids.out).not.toContain('Resources');
    expect(await (await fetch(`${urlOf(ids.out)}/things/x`)).json()).toEqual({ _id: 'x', name: 'thing' });
  });

  it('--middlewares runs Express-style middlewares on every request (one or several files)', async () => {
    const dir = await folder({
      'hello.cjs': "module.exports = (req, res, next) => {\n  res.header('X-Hello', 'World')\n  next()\n}\n",
      'guard.mjs': "export default (req, res, next) => (req.get('authorization') === 'Bearer ok' || req.method === 'GET' ? next() : res.status(401).json({ error: 'who are you?' }))\n",
    });
    const r = await runCli(['db.json', '--port', '0', '--middlewares', './hello.cjs', './guard.mjs'], dir);
    const url = urlOf(r.out);
    const got = await fetch(`${url}/posts/1`);
    expect(got.headers.get('x-hello')).toBe('World');
    expect(await got.json()).toEqual(DB.posts[0]);
    expect((await fetch(`${url}/nothing`)).headers.get('x-hello')).toBe('World'); // the 404 too
    const denied = await fetch(`${url}/posts`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"title":"x"}' });
    expect(denied.status).toBe(401);
    expect(await denied.json()).toEqual({ error: 'who are you?' });
    const allowed = await fetch(`${url}/posts`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer ok' }, body: '{"title":"x"}' });
    expect(allowed.status).toBe(201);
  });

  it('json-server.json (read by default, or --config FILE.json) holds the same settings', async () => {
    const dir = await folder({ 'json-server.json': JSON.stringify({ port: 0, readOnly: true, routes: 'routes.json' }), 'routes.json': JSON.stringify({ '/p/:id': '/posts/:id' }) });
    const r = await runCli(['db.json'], dir);
    const url = urlOf(r.out);
    expect(await (await fetch(`${url}/p/1`)).json()).toEqual(DB.posts[0]);
    expect((await fetch(`${url}/posts/1`, { method: 'DELETE' })).status).toBe(403);
    await writeFile(join(dir, 'other.json'), JSON.stringify({ port: 0, prot: 1 }));
    const typo = await runCli(['db.json', '--config', 'other.json'], dir);
    expect(typo.code).toBe(2);
    expect(typo.err).toMatch(/"prot" is not a json-server setting \(did you mean "port"\?\)/);
  });

  it('an unknown flag gets "did you mean", mockyard\'s and json-server\'s names both known', async () => {
    const dir = await folder();
    for (const [flag, hint] of [['--wacth', '--watch'], ['--rotes', '--routes'], ['--prefx', '--prefix'], ['--read-onyl', '--read-only']]) {
      const r = await runCli(['db.json', flag!], dir);
      expect(r.code).toBe(2);
      expect(r.err).toContain(`unknown option ${flag} (did you mean ${hint}?)`);
    }
    const missing = await runCli(['db.json', '--routes', 'nope.json', '--port', '0'], dir);
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/--routes .*nope\.json: not found/);
  });

  it('db.js / db.cjs / db.mjs exporting the data or a function returning it, and db.json5, are served (from memory)', async () => {
    const dir = await folder({
      'gen.cjs': 'module.exports = () => { const data = { users: [] }; for (let i = 0; i < 3; i++) data.users.push({ id: i, name: `user${i}` }); return data }\n',
      'data.mjs': 'export default { tags: [{ id: 1, label: "a" }] }\n',
      'async.js': 'export default async () => ({ items: [{ id: 1 }] })\n',
      'package.json': '{ "type": "module" }',
      'db.json5': "{\n  // comments and trailing commas\n  notes: [{ id: 1, text: 'json5', },],\n}\n",
    });
    const gen = await runCli(['gen.cjs', '--port', '0'], dir);
    const genUrl = urlOf(gen.out);
    expect(await (await fetch(`${genUrl}/users/2`)).json()).toEqual({ id: 2, name: 'user2' });
    expect((await fetch(`${genUrl}/users`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"new"}' })).status).toBe(201);
    expect(await (await fetch(`${genUrl}/users?name=new`)).json()).toEqual([{ id: 3, name: 'new' }]);
    expect(await readFile(join(dir, 'gen.cjs'), 'utf8')).toContain('module.exports'); // never written
    expect(await (await fetch(`${urlOf((await runCli(['data.mjs', '--port', '0'], dir)).out)}/tags`)).json()).toEqual([{ id: 1, label: 'a' }]);
    expect(await (await fetch(`${urlOf((await runCli(['async.js', '--port', '0'], dir)).out)}/items/1`)).json()).toEqual({ id: 1 });
    expect(await (await fetch(`${urlOf((await runCli(['db.json5', '--port', '0'], dir)).out)}/notes/1`)).json()).toEqual({ id: 1, text: 'json5' });
    const bad = await runCli(['missing.mjs', '--port', '0'], dir);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/missing\.mjs not found/);
  });

  it('./public is served by default with a data file, as json-server does: types, ranges, revalidation, never above the folder', async () => {
    const dir = await folder({ 'public/index.html': '<h1>home</h1>', 'public/app.js': 'console.log(1)', 'secret.txt': 'no' });
    const r = await runCli(['db.json', '--port', '0'], dir);
    const url = urlOf(r.out);
    const home = await fetch(`${url}/`);
    expect(home.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await home.text()).toBe('<h1>home</h1>');
    expect(await (await fetch(`${url}/`, { headers: { Accept: 'text/html' } })).text()).toBe('<h1>home</h1>'); // a browser too (not the start-up map)
    const js = await fetch(`${url}/app.js`);
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(js.headers.get('accept-ranges')).toBe('bytes');
    expect(js.headers.get('cache-control')).toBe('no-cache');
    const etag = js.headers.get('etag')!;
    expect((await fetch(`${url}/app.js`, { headers: { 'If-None-Match': etag } })).status).toBe(304);
    const part = await fetch(`${url}/app.js`, { headers: { Range: 'bytes=0-6' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe('bytes 0-6/14');
    expect(await part.text()).toBe('console');
    expect((await fetch(`${url}/app.js`, { headers: { Range: 'bytes=99-' } })).status).toBe(416);
    for (const p of ['/../secret.txt', '/%2e%2e/secret.txt', '/..%2fsecret.txt', '/%252e%252e/secret.txt']) {
      const res = await fetch(`${url}${p}`);
      expect([400, 404], p).toContain(res.status);
      expect(await res.text(), p).not.toContain('no');
    }
  });
});
