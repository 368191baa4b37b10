/**
 * Every answer of the `mockyard` command goes out with the headers the mock API gives its own
 * (CORS for the request's Origin, the json-server preset's no-cache set, the `-m` middlewares'),
 * through the built command on a real port with a browser's `Origin`: the 404 for a request under
 * the other prefix (src/node/data-prefix.ts; the engine's own 404 under `/`, the host's 404 adopted
 * by the mock API outside its prefixes) and its CORS preflight, and the other refusals a browser
 * app meets (413, 400, 404, 405, the read-only 403). Without those headers the app sees a CORS
 * error instead of the message.
 */
import { writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileSources } from '../helpers/built-src.js';
import { startCli, stopCliProcesses } from '../helpers/cli-process.js';
import { makeTempDir, removeTempDirs } from '../helpers/temp-dir.js';

let cli: string;
beforeAll(() => {
  cli = join(compileSources('cli-answer-headers'), 'node', 'cli.js');
}, 120_000);
afterAll(async () => {
  await stopCliProcesses();
  await removeTempDirs();
});

const POSTS = [{ id: 1, title: 'a' }, { id: 2, title: 'b' }];

/** How each start is made, the Origin a browser app sends, and the headers every answer must carry for it. */
interface Start {
  name: string;
  args: string[];
  files: Record<string, string>;
  origin: string;
  expected: Record<string, string | null>;
  /** Paths: one the data is at, one under the other prefix, one that nothing answers. */
  at: string;
  wrong: string;
  nothing: string;
  /** A write with a JSON body and one past the body limit. */
  write: { method: string; path: string; tooLarge: number };
}

const JSON_SERVER: Start = {
  name: 'db.json (json-server preset) with -m',
  args: ['db.json', '-m', 'mw.js'],
  files: {
    'db.json': JSON.stringify({ posts: POSTS }),
    'mw.js': "module.exports = (req, res, next) => { res.header('X-Hello', 'World'); next(); };\n",
  },
  origin: 'http://localhost:5173', // the command's default CORS: local origins reflected, with credentials
  expected: {
    'access-control-allow-origin': 'http://localhost:5173',
    'access-control-allow-credentials': 'true',
    'cache-control': 'no-cache',
    pragma: 'no-cache',
    expires: '-1',
    'x-hello': 'World',
  },
  at: '/posts/2',
  wrong: '/api/posts/2',
  nothing: '/posts/99',
  write: { method: 'POST', path: '/posts', tooLarge: 10 * 1024 * 1024 + 1 },
};

const CONFIG: Start = {
  name: 'config file (fsDir, configured cors)',
  args: [],
  files: {
    'mocks/posts.json': JSON.stringify(POSTS),
    'mockyard.config.mjs': "export default { mock: { fsDir: 'mocks', bodyLimit: 1000, cors: { origins: ['http://app.test'] } } };\n",
  },
  origin: 'http://app.test',
  expected: { 'access-control-allow-origin': 'http://app.test', 'access-control-allow-credentials': null, pragma: null },
  at: '/api/posts',
  wrong: '/posts',
  nothing: '/api/nothing',
  write: { method: 'PUT', path: '/api/posts', tooLarge: 1001 },
};

async function start(s: Start, more: string[] = []): Promise<string> {
  const dir = await makeTempDir();
  for (const [name, text] of Object.entries(s.files)) {
    await mkdir(join(dir, name, '..'), { recursive: true });
    await writeFile(join(dir, name), text);
  }
  return (await startCli(cli, [...s.args, ...more, '--port', '0'], dir)).url;
}

/**
 * `beforeMiddlewares`: an answer given before the `-m` middlewares run (the body past the limit,
 * the read-only refusal) has no header of theirs, as in json-server 0.17.4, whose body parser and
 * read-only check come before them (measured: its `--ro -m` 403 has CORS and no-cache, not the
 * middleware's header).
 */
function expectHeaders(res: Response, s: Start, what: string, beforeMiddlewares = false): void {
  for (const [name, value] of Object.entries(s.expected)) expect(res.headers.get(name), `${what}: ${name}`).toBe(beforeMiddlewares && name === 'x-hello' ? null : value);
  expect(res.headers.get('vary') ?? '', `${what}: vary`).toMatch(/\bOrigin\b/);
  expect(res.headers.get('access-control-expose-headers'), `${what}: expose`).toContain('X-Total-Count');
}

describe.each([JSON_SERVER, CONFIG])('$name', (s) => {
  let url: string;
  beforeAll(async () => {
    url = await start(s);
  }, 30_000);

  it('the 404 under the other prefix names where the data is, with the headers of every answer', async () => {
    const ok = await fetch(`${url}${s.at}`, { headers: { Origin: s.origin } });
    expect(ok.status).toBe(200);
    expectHeaders(ok, s, 'the data');
    for (const method of ['GET', 'HEAD']) {
      const miss = await fetch(`${url}${s.wrong}`, { method, headers: { Origin: s.origin } });
      expect(miss.status, method).toBe(404);
      expectHeaders(miss, s, `${method} ${s.wrong}`);
      if (method === 'GET') expect((await miss.json()).message).toMatch(/^Not Found: the data is served (at|under) /);
    }
  });

  it('a CORS preflight under the other prefix is answered as under the prefix, then the request reads the 404', async () => {
    const headers = { Origin: s.origin, 'Access-Control-Request-Method': 'PATCH', 'Access-Control-Request-Headers': 'content-type' };
    const wrong = await fetch(`${url}${s.wrong}`, { method: 'OPTIONS', headers });
    const right = await fetch(`${url}${s.at}`, { method: 'OPTIONS', headers });
    expect(wrong.status).toBe(204);
    for (const name of ['access-control-allow-origin', 'access-control-allow-credentials', 'access-control-allow-methods', 'access-control-allow-headers', 'access-control-max-age']) {
      expect(wrong.headers.get(name), name).toBe(right.headers.get(name));
    }
    expect(wrong.headers.get('access-control-allow-origin')).toBe(s.origin);
    // Another origin's preflight is refused there as under the prefix.
    const other = await fetch(`${url}${s.wrong}`, { method: 'OPTIONS', headers: { ...headers, Origin: 'http://evil.example' } });
    expect(other.status).toBe(403);
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });

  it.each([
    { row: '413 body past the limit', status: 413, beforeMiddlewares: true, send: (s: Start) => ({ path: s.write.path, init: { method: s.write.method, headers: { 'content-type': 'application/json' }, body: `"${'a'.repeat(s.write.tooLarge)}"` } }) },
    { row: '400 malformed JSON body', status: 400, send: (s: Start) => ({ path: s.write.path, init: { method: s.write.method, headers: { 'content-type': 'application/json' }, body: '{bad' } }) },
    { row: '404 nothing matched', status: 404, send: (s: Start) => ({ path: s.nothing, init: {} }) },
    { row: '405 OPTIONS that is not a preflight', status: 405, send: (s: Start) => ({ path: s.at, init: { method: 'OPTIONS' } }) },
  ])('$row carries them too', async ({ status, send, beforeMiddlewares }) => {
    const { path, init } = send(s);
    const res = await fetch(`${url}${path}`, { ...init, headers: { ...(init as RequestInit).headers, Origin: s.origin } });
    expect(res.status).toBe(status);
    expectHeaders(res, s, `${status}`, beforeMiddlewares);
    await res.arrayBuffer();
  });

  it('the read-only 403 carries them too', async () => {
    const ro = s === JSON_SERVER ? await start(s, ['--ro']) : await start({ ...s, files: { ...s.files, 'mockyard.config.mjs': s.files['mockyard.config.mjs']!.replace("bodyLimit: 1000", 'bodyLimit: 1000, readOnly: true') } });
    const res = await fetch(`${ro}${s.write.path}`, { method: s.write.method, headers: { Origin: s.origin, 'content-type': 'application/json' }, body: '{}' });
    expect(res.status).toBe(403);
    expectHeaders(res, s, '403', true);
  }, 30_000);
});
