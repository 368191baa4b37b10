/**
 * json-server's command line and relations as one product, through the built `mockyard` command
 * on a real port: every flag of json-server 0.17's `--help` in its bare and valued forms, a folder
 * and a db.json under one prefix rule (src/node/data-prefix.ts) with a 404 naming where the data
 * is, one relation rule (src/engine/store/relations.ts) answering REST's embed/expand/nested
 * routes/cascade, GraphQL's fields and the OpenAPI backend's generated links from one table, and
 * json-server 0.17's timing rules (`?_delay`, `--delay` sparing static files and 403s).
 */
import { spawnSync } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createNodeMockApi } from '../../src/node/engines.js';
import { compileSources } from '../helpers/built-src.js';
import { startCli, stopCliProcesses } from '../helpers/cli-process.js';
import { makeTempDir, removeTempDirs } from '../helpers/temp-dir.js';

let cli: string;
beforeAll(() => {
  cli = join(compileSources('json-server-compat'), 'node', 'cli.js');
}, 120_000);
afterEach(async () => {
  await stopCliProcesses();
  await removeTempDirs();
});

const DB = {
  posts: [{ id: 1, title: 'json-server', views: 15 }, { id: 2, title: 'lowdb', views: 25 }],
  comments: [{ id: 1, body: 'some comment', postId: 1 }],
  profile: { name: 'typicode' },
};

async function project(files: Record<string, string> = {}): Promise<string> {
  const dir = await makeTempDir();
  await writeFile(join(dir, 'db.json'), JSON.stringify(DB, null, 2));
  for (const [name, text] of Object.entries(files)) {
    await mkdir(join(dir, name, '..'), { recursive: true });
    await writeFile(join(dir, name), text);
  }
  return dir;
}

const json = (method: string, body: unknown): RequestInit => ({ method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe("every flag of json-server 0.17's --help", () => {
  // json-server 0.17.4 `--help`, each flag in the forms yargs takes: switches bare, `=true` and
  // `=false`; valued flags `--flag V`, `--flag=V` and the short letter; `--snapshots` bare too
  // (its default is `.`). `served` says what the running server must show for it.
  type Case = { args: string[]; served?: (url: string, out: string) => Promise<void> };
  const posts = async (url: string) => expect((await fetch(`${url}/posts/1`)).status).toBe(200);
  const readOnly = (on: boolean) => async (url: string) => expect((await fetch(`${url}/posts`, json('POST', { title: 'x' }))).status).toBe(on ? 403 : 201);
  const cors = (on: boolean) => async (url: string) => {
    const r = await fetch(`${url}/posts/1`, { headers: { Origin: 'http://localhost:5173' } });
    expect(r.headers.get('access-control-allow-origin')).toBe(on ? 'http://localhost:5173' : null);
  };
  const quiet = (on: boolean) => async (_url: string, out: string) => expect(out.includes('Resources')).toBe(!on);
  const CASES: Record<string, Case> = {
    '--config json-server.json': { args: ['--config', 'json-server.json'], served: readOnly(true) },
    '--config=json-server.json': { args: ['--config=json-server.json'], served: readOnly(true) },
    '-c json-server.json': { args: ['-c', 'json-server.json'], served: readOnly(true) },
    '--port N': { args: ['--port', '0'], served: posts },
    '--port=N': { args: ['--port=0'], served: posts },
    '-p N': { args: ['-p', '0'], served: posts },
    '--host H': { args: ['--host', '127.0.0.1'], served: posts },
    '--host=H': { args: ['--host=127.0.0.1'], served: posts },
    '-H H': { args: ['-H', '127.0.0.1'], served: posts },
    '--watch': { args: ['--watch'], served: posts },
    '--watch=true': { args: ['--watch=true'], served: posts },
    '--watch=false': { args: ['--watch=false'], served: posts },
    '-w': { args: ['-w'], served: posts },
    '--routes F': { args: ['--routes', 'routes.json'], served: async (url) => expect((await (await fetch(`${url}/blog/2`)).json()).title).toBe('lowdb') },
    '--routes=F': { args: ['--routes=routes.json'], served: async (url) => expect((await fetch(`${url}/blog/2`)).status).toBe(200) },
    '-r F': { args: ['-r', 'routes.json'], served: async (url) => expect((await fetch(`${url}/blog/2`)).status).toBe(200) },
    '--middlewares F': { args: ['--middlewares', 'hello.js'], served: async (url) => expect((await fetch(`${url}/posts`)).headers.get('x-hello')).toBe('World') },
    '--middlewares=F': { args: ['--middlewares=hello.js'], served: async (url) => expect((await fetch(`${url}/posts`)).headers.get('x-hello')).toBe('World') },
    '-m F': { args: ['-m', 'hello.js'], served: async (url) => expect((await fetch(`${url}/posts`)).headers.get('x-hello')).toBe('World') },
    '--static D': { args: ['--static', 'assets'], served: async (url) => expect(await (await fetch(`${url}/a.txt`)).text()).toBe('hello') },
    '--static=D': { args: ['--static=assets'], served: async (url) => expect(await (await fetch(`${url}/a.txt`)).text()).toBe('hello') },
    '-s D': { args: ['-s', 'assets'], served: async (url) => expect(await (await fetch(`${url}/a.txt`)).text()).toBe('hello') },
    '--read-only': { args: ['--read-only'], served: readOnly(true) },
    '--read-only=true': { args: ['--read-only=true'], served: readOnly(true) },
    '--read-only=false': { args: ['--read-only=false'], served: readOnly(false) },
    '--ro': { args: ['--ro'], served: readOnly(true) },
    '--no-cors': { args: ['--no-cors'], served: cors(false) },
    '--no-cors=true': { args: ['--no-cors=true'], served: cors(false) },
    '--no-cors=false': { args: ['--no-cors=false'], served: cors(true) },
    '--nc': { args: ['--nc'], served: cors(false) },
    '--nc=true': { args: ['--nc=true'], served: cors(false) },
    '--no-gzip': { args: ['--no-gzip'], served: posts },
    '--no-gzip=true': { args: ['--no-gzip=true'], served: posts },
    '--ng': { args: ['--ng'], served: posts },
    '--snapshots': { args: ['--snapshots'], served: posts },
    '--snapshots D': { args: ['--snapshots', 'snaps'], served: posts },
    '--snapshots=D': { args: ['--snapshots=snaps'], served: posts },
    '-S': { args: ['-S'], served: posts },
    '-S D': { args: ['-S', '.'], served: posts },
    '--delay MS': { args: ['--delay', '1'], served: posts },
    '--delay=MS': { args: ['--delay=1'], served: posts },
    '-d MS': { args: ['-d', '1'], served: posts },
    '--id F': { args: ['--id', '_id', 'ids.json'], served: async (url) => expect((await fetch(`${url}/things/x`)).status).toBe(200) },
    '--id=F': { args: ['--id=_id', 'ids.json'], served: async (url) => expect((await fetch(`${url}/things/x`)).status).toBe(200) },
    '-i F': { args: ['-i', '_id', 'ids.json'], served: async (url) => expect((await fetch(`${url}/things/x`)).status).toBe(200) },
    '--foreignKeySuffix S': { args: ['--foreignKeySuffix', '_ref', 'refs.json'], served: async (url) => expect((await (await fetch(`${url}/posts/1/comments`)).json())).toHaveLength(1) },
    '--foreignKeySuffix=S': { args: ['--foreignKeySuffix=_ref', 'refs.json'], served: async (url) => expect((await (await fetch(`${url}/posts/1/comments`)).json())).toHaveLength(1) },
    '--fks S': { args: ['--fks', '_ref', 'refs.json'], served: async (url) => expect((await (await fetch(`${url}/posts/1/comments`)).json())).toHaveLength(1) },
    '--quiet': { args: ['--quiet'], served: quiet(true) },
    '--quiet=true': { args: ['--quiet=true'], served: quiet(true) },
    '--quiet=false': { args: ['--quiet=false'], served: quiet(false) },
    '-q': { args: ['-q'], served: quiet(true) },
  };

  it.each(Object.keys(CASES))('%s', async (name) => {
    const c = CASES[name]!;
    const dir = await project({
      'routes.json': JSON.stringify({ '/blog/:id': '/posts/:id' }),
      'hello.js': "module.exports = (req, res, next) => { res.header('X-Hello', 'World'); next() }\n",
      'assets/a.txt': 'hello',
      'snaps/.keep': '',
      'ids.json': JSON.stringify({ things: [{ _id: 'x', name: 'thing' }] }),
      'refs.json': JSON.stringify({ posts: [{ id: 1 }], comments: [{ id: 1, post_ref: 1 }, { id: 2, post_ref: 2 }] }),
      'json-server.json': JSON.stringify({ readOnly: true }),
    });
    // The data file is positional; `--port 0` unless the case sets the port.
    const data = c.args.some((a) => a.endsWith('.json') && !a.includes('json-server') && !a.includes('routes')) ? [] : ['db.json'];
    const port = c.args.some((a) => a === '-p' || a.startsWith('--port')) ? [] : ['--port', '0'];
    const config = name.includes('json-server.json') ? [] : ['--config', 'none.json'];
    await writeFile(join(dir, 'none.json'), '{}');
    const { url, output } = await startCli(cli, [...data, ...c.args, ...port, ...config], dir);
    await c.served?.(url, output());
  }, 30_000);

  it('-h/--help and -v/--version answer and exit 0, also in the =true form', () => {
    for (const flag of ['-h', '--help', '--help=true', '-v', '--version', '--version=true']) {
      const r = spawnSync(process.execPath, [cli, flag], { encoding: 'utf8' });
      expect(r.status, flag).toBe(0);
      expect(r.stdout.length, flag).toBeGreaterThan(0);
    }
  });

  it('a switch given a value it cannot mean is refused naming the flag (exit 2)', () => {
    const r = spawnSync(process.execPath, [cli, 'db.json', '--no-cors=maybe'], { encoding: 'utf8', cwd: '/' });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('--no-cors is a switch: give it alone, or --no-cors=true / --no-cors=false (got "maybe")');
  });
});

describe('one prefix rule for a file and a folder (src/node/data-prefix.ts)', () => {
  it('`mockyard mocks` serves a folder where `mockyard db.json` serves a file: at /, and /api/… names where the data is', async () => {
    const dir = await project({ 'mocks/posts.json': JSON.stringify(DB.posts) });
    for (const data of ['db.json', 'mocks']) {
      const { url, output } = await startCli(cli, [data, '--port', '0'], dir);
      expect(output(), data).toContain(`${url}  →  `);
      expect((await (await fetch(`${url}/posts/2`)).json()).title, data).toBe('lowdb');
      const miss = await fetch(`${url}/api/posts/2`);
      expect(miss.status, data).toBe(404);
      expect((await miss.json()).message, data).toBe('Not Found: the data is served at / (try /posts/2); start with --prefix /api to serve it under /api');
    }
  });

  it('--prefix /api moves both; a request at / then names /api', async () => {
    const dir = await project({ 'mocks/posts.json': JSON.stringify(DB.posts) });
    for (const data of ['db.json', 'mocks']) {
      const { url } = await startCli(cli, [data, '--prefix', '/api', '--port', '0'], dir);
      expect((await fetch(`${url}/api/posts/2`)).status, data).toBe(200);
      const miss = await fetch(`${url}/posts/2`);
      expect(miss.status, data).toBe(404);
      expect((await miss.json()).message, data).toBe('Not Found: the data is served under /api (try /api/posts/2); start with --prefix / to serve it at /');
    }
  });

  it("mockyard's own --fs-dir keeps /api (as a recording replays where it was recorded), and says where", async () => {
    const dir = await project({ 'mocks/posts.json': JSON.stringify(DB.posts) });
    const { url } = await startCli(cli, ['--fs-dir', 'mocks', '--port', '0'], dir);
    expect((await fetch(`${url}/api/posts/2`)).status).toBe(200);
    expect((await (await fetch(`${url}/posts/2`)).json()).message).toMatch(/served under \/api \(try \/api\/posts\/2\)/);
  });

  it('a folder and a file together, or a folder and --fs-dir, are refused (exit 2)', () => {
    const r = spawnSync(process.execPath, [cli, 'db.json', 'mocks'], { encoding: 'utf8', cwd: '/' });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/give at most one data file or folder/);
  });
});

describe('one relation rule: REST, GraphQL and the OpenAPI backend from one table (src/engine/store/relations.ts)', () => {
  // Each row: a way to name the relation comments → posts, how the command is started for it.
  const TABLE = [
    { name: "json-server's <name>Id", field: 'postId', args: [] as string[], config: undefined as string | undefined },
    { name: "json-graphql-server's <name>_id (its sample data)", field: 'post_id', args: [], config: undefined },
    { name: 'declared in mock.store.relations', field: 'article', args: [], config: "export default { mock: { store: { relations: { comments: { article: 'posts' } } } } };\n" },
    { name: "json-server's --fks _ref", field: 'post_ref', args: ['--fks', '_ref'], config: undefined },
  ];

  it.each(TABLE)('$name: _embed, _expand, nested GET/POST, the delete cascade and GraphQL follow it', async ({ field, args, config }) => {
    const db = {
      posts: [{ id: 1, title: 'Lorem Ipsum' }, { id: 2, title: 'Sic Dolor amet' }],
      comments: [{ id: 987, [field]: 1, body: 'Consectetur' }, { id: 995, [field]: 1, body: 'Nam molestie' }, { id: 996, [field]: 2, body: 'Other' }],
    };
    const dir = await makeTempDir();
    await writeFile(join(dir, 'db.json'), JSON.stringify(db, null, 2));
    if (config !== undefined) await writeFile(join(dir, 'mockyard.config.mjs'), config);
    const { url } = await startCli(cli, ['db.json', ...args, '--port', '0', '--quiet'], dir);
    const ids = (list: Array<{ id: number }>) => list.map((c) => c.id);

    expect(ids((await (await fetch(`${url}/posts/1?_embed=comments`)).json()).comments)).toEqual([987, 995]);
    expect((await (await fetch(`${url}/comments/987?_expand=post`)).json()).post).toEqual(db.posts[0]);
    expect(ids(await (await fetch(`${url}/posts/1/comments`)).json())).toEqual([987, 995]);
    const gql = async (query: string) => (await (await fetch(`${url}/graphql`, json('POST', { query }))).json()).data;
    expect(await gql('{ Post(id: 1) { Comments { id } } }')).toEqual({ Post: { Comments: [{ id: '987' }, { id: '995' }] } });
    const toOne = field === 'article' ? 'Article' : 'Post';
    expect(await gql(`{ Comment(id: 987) { ${toOne} { title } } }`)).toEqual({ Comment: { [toOne]: { title: 'Lorem Ipsum' } } });

    const created = await fetch(`${url}/posts/2/comments`, json('POST', { body: 'nested' }));
    expect((await created.json())[field]).toBe(2);
    const removed = await fetch(`${url}/posts/1`, { method: 'DELETE' });
    expect(removed.headers.get('x-deleted-count')).toBe('3'); // the post and its two comments
    expect(ids(await (await fetch(`${url}/comments`)).json())).toEqual([996, 997]);
  });

  it.each(TABLE)('$name: the OpenAPI backend draws the field from existing parents', async ({ field, args, config }) => {
    const store = config !== undefined ? { relations: { comments: { [field]: 'posts' } } } : args.length > 0 ? { foreignKeySuffix: '_ref' } : undefined;
    const item = (props: Record<string, unknown>) => ({ type: 'object', required: Object.keys(props), properties: props });
    const document = {
      openapi: '3.0.3',
      info: { title: 'relations', version: '1' },
      paths: {
        '/posts': { get: { responses: { 200: { description: 'posts', content: { 'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/Post' } } } } } } } },
        '/comments': { get: { responses: { 200: { description: 'comments', content: { 'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/Comment' } } } } } } } },
        '/posts/{id}': { get: { parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }], responses: { 200: { description: 'a post', content: { 'application/json': { schema: { $ref: '#/components/schemas/Post' } } } } } } },
        '/comments/{id}': { get: { parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }], responses: { 200: { description: 'a comment', content: { 'application/json': { schema: { $ref: '#/components/schemas/Comment' } } } } } } },
      },
      components: { schemas: { Post: item({ id: { type: 'integer' }, title: { type: 'string' } }), Comment: item({ id: { type: 'integer' }, [field]: { type: 'integer' }, body: { type: 'string' } }) } },
    };
    const api = createNodeMockApi({ endpointPrefix: '/api', fsDir: null, logLevel: 'silent', store, openapi: { document, count: 5 } as never });
    try {
      const postIds = new Set(((await (await api.handle(new Request('http://localhost/api/posts')))!.json()) as Array<{ id: number }>).map((p) => p.id));
      const comments = (await (await api.handle(new Request('http://localhost/api/comments')))!.json()) as Array<Record<string, unknown>>;
      expect(comments.length).toBeGreaterThan(0);
      for (const c of comments) expect(postIds.has(c[field] as number), `${field}: ${String(c[field])}`).toBe(true);
    } finally {
      await api.close();
    }
  });
});

describe("json-server 0.17's timing", () => {
  it('?_delay=MS waits on any method; --delay spares static files and the read-only 403, as 0.17', async () => {
    const dir = await project({ 'public/app.js': 'console.log(1)' });
    const { url } = await startCli(cli, ['db.json', '--port', '0', '--quiet'], dir);
    const timed = async (input: string, init?: RequestInit) => {
      const start = performance.now();
      const r = await fetch(input, init);
      await r.arrayBuffer();
      return { status: r.status, ms: performance.now() - start };
    };
    expect((await timed(`${url}/posts/1?_delay=400`)).ms).toBeGreaterThanOrEqual(380);
    const patched = await timed(`${url}/posts/1?_delay=400`, json('PATCH', { views: 16 }));
    expect(patched.status).toBe(200);
    expect(patched.ms).toBeGreaterThanOrEqual(380);
    expect((await timed(`${url}/posts/1`)).ms).toBeLessThan(300);

    const slow = await startCli(cli, ['db.json', '--port', '0', '--quiet', '--delay', '800', '--read-only'], dir);
    expect((await timed(`${slow.url}/posts/1`)).ms).toBeGreaterThanOrEqual(780);
    const file = await timed(`${slow.url}/app.js`);
    expect(file.status).toBe(200);
    expect(file.ms).toBeLessThan(500);
    const refused = await timed(`${slow.url}/posts`, json('POST', { title: 'x' }));
    expect(refused.status).toBe(403);
    expect(refused.ms).toBeLessThan(500);
  });

  it('a DELETE sent with a JSON body ({}, as axios sends it) deletes; the saved file keeps its dependants out', async () => {
    const dir = await project();
    const { url, child } = await startCli(cli, ['db.json', '--port', '0', '--quiet'], dir);
    const r = await fetch(`${url}/posts/1`, json('DELETE', {}));
    expect(r.status).toBe(200);
    expect(r.headers.get('x-deleted-count')).toBe('2');
    child.kill('SIGTERM');
    await new Promise((res) => child.once('exit', res));
    const saved = JSON.parse(await readFile(join(dir, 'db.json'), 'utf8'));
    expect(saved.posts.map((p: { id: number }) => p.id)).toEqual([2]);
    expect(saved.comments).toEqual([]);
  });
});

describe('a hand-written db.json keeps its layout on write', () => {
  it('one item per line (spaced or tight) stays one item per line after POST, PATCH and DELETE', async () => {
    for (const spaced of [true, false]) {
      const item = (o: Record<string, unknown>) => (spaced ? JSON.stringify(o).replace(/":/g, '": ').replace(/,"/g, ', "').replace(/^\{/, '{ ').replace(/\}$/, ' }') : JSON.stringify(o));
      const file = (posts: Array<Record<string, unknown>>) => `{\n  "posts": [\n${posts.map((p) => `    ${item(p)}`).join(',\n')}\n  ],\n  "profile": {\n    "name": "typicode"\n  }\n}\n`;
      const dir = await makeTempDir();
      await writeFile(join(dir, 'db.json'), file([{ id: 1, title: 'a' }, { id: 2, title: 'b' }]));
      const { url, child } = await startCli(cli, ['db.json', '--port', '0', '--quiet'], dir);
      expect((await fetch(`${url}/posts`, json('POST', { title: 'c' }))).status).toBe(201);
      expect((await fetch(`${url}/posts/1`, json('PATCH', { title: 'A' }))).status).toBe(200);
      expect((await fetch(`${url}/posts/2`, { method: 'DELETE' })).status).toBe(200);
      child.kill('SIGTERM');
      await new Promise((res) => child.once('exit', res));
      expect(await readFile(join(dir, 'db.json'), 'utf8'), spaced ? 'spaced' : 'tight').toBe(file([{ id: 1, title: 'A' }, { id: 3, title: 'c' }]));
    }
  });
});

describe("a hand-written mocks folder file keeps its layout on write (the db.json rule)", () => {
  const item = (o: Record<string, unknown>, spaced: boolean) => (spaced ? JSON.stringify(o).replace(/":/g, '": ').replace(/,"/g, ', "').replace(/^\{/, '{ ').replace(/\}$/, ' }') : JSON.stringify(o));
  const file = (posts: Array<Record<string, unknown>>, spaced: boolean, ind = '  ') => `[\n${posts.map((p) => `${ind}${item(p, spaced)}`).join(',\n')}\n]\n`;
  const stop = async (child: import('node:child_process').ChildProcess) => {
    child.kill('SIGTERM');
    await new Promise((res) => child.once('exit', res));
  };

  it('a folder served as collections (mockyard mocks): POST, PATCH and DELETE keep one item per line', async () => {
    for (const spaced of [true, false]) {
      const dir = await makeTempDir();
      await mkdir(join(dir, 'mocks'));
      await writeFile(join(dir, 'mocks', 'posts.json'), file([{ id: 1, title: 'a' }, { id: 2, title: 'b' }], spaced));
      const { url, child } = await startCli(cli, ['mocks', '--port', '0', '--quiet'], dir);
      expect((await fetch(`${url}/posts`, json('POST', { title: 'c' }))).status).toBe(201);
      expect((await fetch(`${url}/posts/1`, json('PATCH', { title: 'A' }))).status).toBe(200);
      expect((await fetch(`${url}/posts/2`, { method: 'DELETE' })).status).toBe(200);
      await stop(child);
      expect(await readFile(join(dir, 'mocks', 'posts.json'), 'utf8'), spaced ? 'spaced' : 'tight').toBe(file([{ id: 1, title: 'A' }, { id: 3, title: 'c' }], spaced));
    }
  });

  it('plain file mode (--preset none): a JSON Patch keeps the layout (a tab-indented file too)', async () => {
    const dir = await makeTempDir();
    await mkdir(join(dir, 'mocks'));
    await writeFile(join(dir, 'mocks', 'posts.json'), file([{ id: 1, title: 'a' }, { id: 2, title: 'b' }], true, '\t'));
    const { url, child } = await startCli(cli, ['--fs-dir', 'mocks', '--preset', 'none', '--port', '0', '--quiet'], dir);
    const patch = [{ op: 'add', path: '/-', value: { id: 3, title: 'c' } }, { op: 'replace', path: '/0/title', value: 'A' }];
    expect((await fetch(`${url}/api/posts`, { method: 'PATCH', headers: { 'content-type': 'application/json-patch+json' }, body: JSON.stringify(patch) })).status).toBe(200);
    await stop(child);
    expect(await readFile(join(dir, 'mocks', 'posts.json'), 'utf8')).toBe(file([{ id: 1, title: 'A' }, { id: 2, title: 'b' }, { id: 3, title: 'c' }], true, '\t'));
  });
});
