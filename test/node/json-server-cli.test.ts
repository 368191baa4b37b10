/**
 * `mockyard db.json` as a json-server user runs it: the built CLI as a real process,
 * started from an empty folder holding only json-server's README db.json, answering the
 * requests json-server's README documents (0.17, and the 1.x forms), with CORS, the request log,
 * the start-up map and the home page; writes land in db.json.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { makeTempDir, removeTempDirs } from '../helpers/temp-dir.js';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const built = join(repo, 'test-artifacts', 'cli-dist-json-server');
const cli = join(built, 'node', 'cli.js');
const children: ChildProcess[] = [];

// json-server 0.17's README db.json, verbatim.
const README_DB = {
  posts: [{ id: 1, title: 'json-server', author: 'typicode' }],
  comments: [{ id: 1, body: 'some comment', postId: 1 }],
  profile: { name: 'typicode' },
};

beforeAll(() => {
  spawnSync(process.execPath, [join(repo, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(repo, 'tsconfig.build.json'), '--outDir', built, '--declaration', 'false', '--sourceMap', 'false'], { cwd: repo, stdio: 'ignore' });
}, 120_000);

afterEach(async () => {
  await Promise.all(children.splice(0).map(async (c) => {
    if (c.exitCode === null) {
      c.kill('SIGTERM');
      await exited(c);
    }
  }));
  await removeTempDirs();
});
afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
});

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((res) => (child.exitCode !== null ? res(child.exitCode) : child.once('exit', (code) => res(code))));
}

interface Started {
  child: ChildProcess;
  url: string;
  output: () => string;
  /** Resolves once `text` has been printed. */
  printed(text: string | RegExp): Promise<void>;
}

function start(args: string[], cwd: string): Promise<Started> {
  const child = spawn(process.execPath, [cli, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let out = '';
  const waiters = new Set<() => void>();
  const onData = (d: Buffer) => {
    out += d;
    for (const w of [...waiters]) w();
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  const printed = (text: string | RegExp) => new Promise<void>((res) => {
    const check = () => {
      if (typeof text === 'string' ? out.includes(text) : text.test(out)) {
        waiters.delete(check);
        res();
      }
    };
    waiters.add(check);
    check();
  });
  return new Promise((res, rej) => {
    void printed('Press Ctrl+C').then(() => {
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)!;
      res({ child, url: m[1]!, output: () => out, printed });
    });
    child.once('exit', (code) => rej(new Error(`exited ${code}: ${out}`)));
  });
}

async function dbFolder(db: unknown = README_DB): Promise<string> {
  const dir = await makeTempDir();
  await writeFile(join(dir, 'db.json'), `${JSON.stringify(db, null, 2)}\n`);
  return dir;
}

async function get(url: string, init?: RequestInit): Promise<{ status: number; headers: Headers; json: any }> {
  const r = await fetch(url, init);
  const text = await r.text();
  return { status: r.status, headers: r.headers, json: text ? JSON.parse(text) : undefined };
}

const json = (body: unknown, method: string): RequestInit => ({ method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('npx mockyard db.json from an empty folder holding only db.json', () => {
  it("answers json-server 0.17's README requests", async () => {
    const dir = await dbFolder();
    const { child, url, output } = await start(['db.json', '--port', '0'], dir);
    const api = `${url}`;

    // Start-up map: every resource with its kind and item count, and the URL to open.
    expect(output()).toMatch(/\/posts\s+collection, 1 item/);
    expect(output()).toMatch(/\/profile\s+object/);
    expect(output()).toContain(`Open ${url}/`);

    // Plural routes
    expect((await get(`${api}/posts`)).json).toEqual(README_DB.posts);
    expect((await get(`${api}/posts/1`)).json).toEqual(README_DB.posts[0]);
    const created = await get(`${api}/posts`, json({ title: 'second', author: 'me', views: 15 }, 'POST'));
    expect(created.status).toBe(201);
    expect(created.json).toEqual({ id: 2, title: 'second', author: 'me', views: 15 });
    expect(created.headers.get('location')).toBe('/posts/2');
    expect((await get(`${api}/posts/2`, json({ title: 'second!', author: 'me', views: 15 }, 'PUT'))).json).toEqual({ id: 2, title: 'second!', author: 'me', views: 15 });
    expect((await get(`${api}/posts/1`, json({ views: 5 }, 'PATCH'))).json).toEqual({ ...README_DB.posts[0], views: 5 });
    await get(`${api}/posts`, json({ title: 'third about the internet', author: 'typicode', views: 30 }, 'POST'));

    // Singular routes
    expect((await get(`${api}/profile`)).json).toEqual({ name: 'typicode' });
    expect((await get(`${api}/profile`, json({ name: 'tc' }, 'PUT'))).status).toBe(200);
    expect((await get(`${api}/profile`, json({ url: 'x' }, 'PATCH'))).json).toEqual({ name: 'tc', url: 'x' });

    // Filter
    expect((await get(`${api}/posts?title=json-server&author=typicode`)).json.map((p: any) => p.id)).toEqual([1]);
    expect((await get(`${api}/posts?id=1&id=2`)).json.map((p: any) => p.id)).toEqual([1, 2]);
    await get(`${api}/comments`, json({ body: 'nested', author: { name: 'typicode' }, postId: 2 }, 'POST'));
    expect((await get(`${api}/comments?author.name=typicode`)).json.map((c: any) => c.body)).toEqual(['nested']);

    // Paginate: _page (default 10 per page), _limit; X-Total-Count and Link
    const page7 = await get(`${api}/posts?_page=7`);
    expect(page7.json).toEqual([]);
    expect(page7.headers.get('x-total-count')).toBe('3');
    const p2 = await get(`${api}/posts?_page=2&_limit=1`);
    expect(p2.json.map((p: any) => p.id)).toEqual([2]);
    const link = p2.headers.get('link')!;
    expect(link).toContain(`<${api}/posts?_page=1&_limit=1>; rel="first"`);
    expect(link).toContain(`<${api}/posts?_page=1&_limit=1>; rel="prev"`);
    expect(link).toContain(`<${api}/posts?_page=3&_limit=1>; rel="next"`);
    expect(link).toContain(`<${api}/posts?_page=3&_limit=1>; rel="last"`);

    // Sort (comma lists; ASC/DESC in any case)
    expect((await get(`${api}/posts?_sort=views&_order=DESC`)).json.map((p: any) => p.id)).toEqual([3, 2, 1]);
    expect((await get(`${api}/posts?_sort=author,views&_order=desc,asc`)).json.map((p: any) => p.id)).toEqual([1, 3, 2]);

    // Slice
    expect((await get(`${api}/posts?_start=1&_end=2`)).json.map((p: any) => p.id)).toEqual([2]);
    const sliced = await get(`${api}/posts?_start=1&_limit=10`);
    expect(sliced.json.map((p: any) => p.id)).toEqual([2, 3]);
    expect(sliced.headers.get('x-total-count')).toBe('3');

    // Operators
    expect((await get(`${api}/posts?views_gte=10&views_lte=20`)).json.map((p: any) => p.id)).toEqual([2]);
    expect((await get(`${api}/posts?id_ne=1`)).json.map((p: any) => p.id)).toEqual([2, 3]);
    expect((await get(`${api}/posts?title_like=server`)).json.map((p: any) => p.id)).toEqual([1]);

    // Full-text search
    expect((await get(`${api}/posts?q=internet`)).json.map((p: any) => p.id)).toEqual([3]);

    // Relationships
    expect((await get(`${api}/posts?_embed=comments`)).json[0].comments).toEqual(README_DB.comments);
    expect((await get(`${api}/posts/1?_embed=comments`)).json).toEqual({ ...README_DB.posts[0], views: 5, comments: README_DB.comments });
    expect((await get(`${api}/comments?_expand=post`)).json[0].post).toEqual({ ...README_DB.posts[0], views: 5 });
    expect((await get(`${api}/comments/1?_expand=post`)).json.post.id).toBe(1);
    expect((await get(`${api}/posts/1/comments`)).json).toEqual(README_DB.comments);
    const nested = await get(`${api}/posts/1/comments`, json({ body: 'another' }, 'POST'));
    expect(nested.status).toBe(201);
    expect(nested.json).toEqual({ id: 3, body: 'another', postId: 1 });
    expect((await get(`${api}/posts/1/comments?_sort=id&_order=desc&_limit=1`)).json.map((c: any) => c.id)).toEqual([3]);

    // Database
    const whole = (await get(`${api}/db`)).json;
    expect(Object.keys(whole).sort()).toEqual(['comments', 'posts', 'profile']);

    // DELETE (with json-server's _dependent), then the file holds every write
    const del = await get(`${api}/posts/2?_dependent=comments`, { method: 'DELETE' });
    expect(del.status).toBe(200);
    expect((await get(`${api}/posts/2`)).status).toBe(404);
    expect((await get(`${api}/comments?postId=2`)).json).toEqual([]);
    child.kill('SIGTERM');
    expect(await exited(child)).toBe(0);
    const saved = JSON.parse(await readFile(join(dir, 'db.json'), 'utf8'));
    expect(saved.posts.map((p: any) => p.id)).toEqual([1, 3]);
    expect(saved.posts[0].views).toBe(5);
    expect(saved.profile).toEqual({ name: 'tc', url: 'x' });
    expect(saved.comments.map((c: any) => c.body)).toEqual(['some comment', 'another']);
  });

  it('accepts the json-server 1.x forms: _per_page, _gt/_lt, _sort=-field, _embed of the parent', async () => {
    const dir = await dbFolder({
      posts: [{ id: '1', title: 'a title', views: 100 }, { id: '2', title: 'another title', views: 200 }],
      comments: [{ id: '1', text: 'a comment about post 1', postId: '1' }],
    });
    const { url } = await start(['db.json', '--port', '0'], dir);
    const api = `${url}`;
    expect((await get(`${api}/posts?views_gt=100`)).json.map((p: any) => p.id)).toEqual(['2']);
    expect((await get(`${api}/posts?views_lt=200`)).json.map((p: any) => p.id)).toEqual(['1']);
    expect((await get(`${api}/posts?_page=2&_per_page=1`)).json).toEqual({ first: 1, prev: 1, next: null, last: 2, pages: 2, items: 2, data: [{ id: '2', title: 'another title', views: 200 }] });
    expect((await get(`${api}/posts?_sort=-views`)).json.map((p: any) => p.id)).toEqual(['2', '1']);
    expect((await get(`${api}/comments?_embed=post`)).json[0].post).toEqual({ id: '1', title: 'a title', views: 100 });
    // String ids: a new item gets a UUID
    const created = await get(`${api}/posts`, json({ title: 'x' }, 'POST'));
    expect(created.json.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  // Through the real CLI the test cannot see when the kernel's watch report arrives, so it asks
  // until the edit is served (bounded by the test's timeout, never by a measured time). The exact
  // claims — the first read after the report serves the edit, and a lost report is caught by the
  // 250 ms re-check — are tested on the driver (test/vfs/json-db.test.ts).
  it('serves an edit of db.json made behind its back, without a restart', async () => {
    const dir = await dbFolder();
    const { url } = await start(['db.json', '--port', '0'], dir);
    expect((await get(`${url}/profile`)).json).toEqual({ name: 'typicode' });
    // As editors and git replace a file: a new file renamed over it.
    const replace = async (name: string) => {
      await writeFile(join(dir, 'db.json.tmp'), JSON.stringify({ ...README_DB, profile: { name } }));
      await rename(join(dir, 'db.json.tmp'), join(dir, 'db.json'));
    };
    for (const name of ['edited', 'edited again']) {
      await replace(name);
      await vi.waitFor(async () => expect((await get(`${url}/profile`)).json).toEqual({ name }), { timeout: 10_000, interval: 10 });
    }
  });

  it('serves at / (as json-server does); --prefix moves it and the start-up map says where', async () => {
    const dir = await dbFolder();
    const root = await start(['db.json', '--port', '0'], dir);
    expect(root.output()).toMatch(new RegExp(`${root.url}/posts\\s+collection, 1 item`));
    expect((await get(`${root.url}/posts/1`)).json).toEqual(README_DB.posts[0]);
    expect((await get(`${root.url}/api/posts/1`)).status).toBe(404);
    const moved = await start(['db.json', '--port', '0', '--prefix', '/api'], dir);
    expect(moved.output()).toMatch(new RegExp(`${moved.url}/api/posts\\s+collection, 1 item`));
    expect((await get(`${moved.url}/api/posts/1`)).json).toEqual(README_DB.posts[0]);
    expect((await get(`${moved.url}/posts/1`)).status).toBe(404);
  });

  it('GET /db answers 200 every time, with and without a query, after writes too', async () => {
    const dir = await dbFolder();
    const { url } = await start(['db.json', '--port', '0'], dir);
    for (let i = 0; i < 20; i++) {
      const r = await get(`${url}/db${i % 2 ? '?x=1' : ''}`);
      expect(r.status).toBe(200);
      expect(r.json.profile).toEqual({ name: 'typicode' });
      expect(r.json.posts).toHaveLength(1 + Math.floor(i / 5));
      if (i % 5 === 4) expect((await get(`${url}/posts`, json({ title: `t${i}` }, 'POST'))).status).toBe(201);
    }
    expect((await fetch(`${url}/db`, { method: 'HEAD' })).status).toBe(200);
  });

  it('fails with a clear message for a broken db file (exit 1)', async () => {
    const dir = await makeTempDir();
    await writeFile(join(dir, 'db.json'), '{ "posts": [ }');
    const broken = spawnSync(process.execPath, [cli, 'db.json', '--port', '0'], { cwd: dir, encoding: 'utf8' });
    expect(broken.status).toBe(1);
    expect(broken.stderr).toMatch(/db\.json is not valid JSON/);
  });
});

describe('CORS, request log, home page', () => {
  it('default CORS: localhost pages allowed (preflight 204, reflected origin, exposed headers), others not; preflights logged', async () => {
    const dir = await dbFolder();
    const { url, printed, output } = await start(['db.json', '--port', '0'], dir);
    const pre = await fetch(`${url}/posts/1`, { method: 'OPTIONS', headers: { Origin: 'http://localhost:5173', 'Access-Control-Request-Method': 'PATCH', 'Access-Control-Request-Headers': 'content-type' } });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(pre.headers.get('access-control-allow-methods')).toContain('PATCH');
    expect(pre.headers.get('access-control-allow-headers')).toBe('content-type');
    expect(pre.headers.get('access-control-allow-credentials')).toBe('true'); // as json-server 0.17: credentials: 'include' works
    const simple = await fetch(`${url}/posts`, { headers: { Origin: 'http://127.0.0.1:8080' } });
    expect(simple.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:8080');
    expect(simple.headers.get('access-control-expose-headers')).toBe('*, X-Total-Count, X-Deleted-Count, Link, Location, Mockyard-Error');
    expect(simple.headers.get('vary')).toBe('Origin');
    const evil = await fetch(`${url}/posts`, { headers: { Origin: 'https://evil.example' } });
    expect(evil.headers.get('access-control-allow-origin')).toBeNull();
    const evilPre = await fetch(`${url}/posts`, { method: 'OPTIONS', headers: { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'POST' } });
    expect(evilPre.status).toBe(403);
    await printed(/OPTIONS\s+\/posts\s+403\s+[\d.]+ ms\s+CORS preflight/);
    expect(output()).toMatch(/OPTIONS\s+\/posts\/1\s+204\s+[\d.]+ ms\s+CORS preflight/);
  });

  it("--cors '*' reflects every origin with credentials (as json-server 0.17), --no-cors leaves the spec's OPTIONS → 405", async () => {
    const dir = await dbFolder();
    const any = await start(['db.json', '--port', '0', '--cors', '*'], dir);
    const r = await fetch(`${any.url}/posts`, { headers: { Origin: 'https://app.example' } });
    expect(r.headers.get('access-control-allow-origin')).toBe('https://app.example');
    expect(r.headers.get('access-control-allow-credentials')).toBe('true');
    const off = await start(['db.json', '--port', '0', '--no-cors'], dir);
    const pre = await fetch(`${off.url}/posts`, { method: 'OPTIONS', headers: { Origin: 'http://localhost:5173', 'Access-Control-Request-Method': 'POST' } });
    expect(pre.status).toBe(405);
    expect(pre.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('logs one line per request with status and what answered; --quiet logs none', async () => {
    const dir = await dbFolder();
    const s = await start(['db.json', '--port', '0'], dir);
    await get(`${s.url}/posts/1`);
    await get(`${s.url}/nothing-here`);
    await get(`${s.url}/posts`);
    await s.printed(/GET\s+\/posts\s+200\s+[\d.]+ ms\s+file posts\.json/);
    expect(s.output()).toMatch(/^\d\d:\d\d:\d\d\.\d{3} GET\s+\/posts\/1\s+200\s+[\d.]+ ms\s+collection posts\.json#1$/m);
    expect(s.output()).toMatch(/GET\s+\/nothing-here\s+404\s+[\d.]+ ms\s+nothing matched/);
    expect(s.output()).not.toContain('\x1b['); // not a TTY: no colours

    const quiet = await start(['db.json', '--port', '0', '--quiet'], dir);
    await get(`${quiet.url}/posts/1`);
    await get(`${quiet.url}/posts/1`);
    expect(quiet.output()).not.toMatch(/GET\s+\/posts\/1/);
    expect(quiet.output()).not.toContain('Resources');
  });

  it('serves the map as an HTML home page at /, every name escaped', async () => {
    const dir = await dbFolder({ ...README_DB, '<img src=x onerror=alert(1)>': [{ id: 1 }] });
    const { url } = await start(['db.json', '--port', '0'], dir);
    const r = await fetch(`${url}/`, { headers: { Accept: 'text/html' } });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await r.text();
    expect(html).toContain('<a href="/posts">/posts</a>');
    expect(html).toContain('collection, 1 item');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).not.toContain('<img');
    expect((await fetch(`${url}/nope`)).status).toBe(404);
  });

  it('--prefix / serves json-server URLs; browsers still get the home page at /', async () => {
    const dir = await dbFolder();
    const { url } = await start(['db.json', '--port', '0', '--prefix', '/'], dir);
    expect((await get(`${url}/posts/1`)).json).toEqual(README_DB.posts[0]);
    const page = await fetch(`${url}/`, { headers: { Accept: 'text/html,application/xhtml+xml' } });
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await page.text()).toContain('<a href="/posts">/posts</a>');
    expect((await fetch(`${url}/`, { headers: { Accept: 'application/json' } })).status).toBe(404);
  });
});
