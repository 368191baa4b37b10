/**
 * `mockyard export [SOURCE | --fs-dir DIR] --openapi FILE [--from-har FILE]` through the built CLI, round trip:
 * traffic to `mockyard db.json` (or a folder) is recorded by `mockyard record` into a HAR; the
 * exported document is valid (@readme/openapi-parser), `mockyard FILE` serves the same routes
 * with the same data, and `mockyard check FILE traffic.har` finds no drift.
 */
import { execFile } from 'node:child_process';
import { cp, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { validate } from '@readme/openapi-parser';
import { parse as parseYaml } from 'yaml';
import { afterEach, describe, expect, it } from 'vitest';
import { startCli, stopCliProcesses, type CliProcess } from '../helpers/cli-process.js';
import { makeTempDir, removeTempDirs } from '../helpers/temp-dir.js';

const run = promisify(execFile);
const CLI = resolve(import.meta.dirname, '../../dist/node/cli.js');
const FIXTURES = resolve(import.meta.dirname, '../fixtures/contract');

afterEach(async () => {
  await stopCliProcesses();
  await removeTempDirs();
});

async function cli(args: string[], cwd: string): Promise<{ code: number; out: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI, ...args], { cwd });
    return { code: 0, out: `${stdout}${stderr}` };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, out: `${e.stdout}${e.stderr}` };
  }
}

async function stop(p: CliProcess): Promise<void> {
  if (p.child.exitCode !== null) return;
  const exited = new Promise((res) => p.child.once('exit', res));
  p.child.kill('SIGTERM');
  await exited;
}

const send = (base: string, method: string, path: string, body?: unknown) =>
  fetch(`${base}${path}`, { method, ...(body === undefined ? {} : { headers: { 'content-type': 'application/json', 'x-client': 'test' }, body: JSON.stringify(body) }) });

/** json-server traffic through a recording proxy in front of `target`; returns the HAR file. */
async function recordTraffic(root: string, target: string, prefix: string, collection: string, id: string | number, object: string): Promise<string> {
  const rec = await startCli(CLI, ['record', '--target', target, '--prefix', prefix, '--fs-dir', 'recorded', '--har', 'traffic.har', '--port', '0', '--quiet'], root);
  const base = `${rec.url}${prefix === '/' ? '' : prefix}`;
  const statuses: number[] = [];
  for (const [method, path, body] of [
    ['GET', `/${collection}`],
    ['GET', `/${collection}/${id}`],
    ['GET', `/${collection}?_page=1&_limit=2`],
    ['GET', `/${collection}?_page=1&_per_page=2`],
    ['GET', `/${collection}?_sort=id&_order=desc&q=e`],
    ['POST', `/${collection}`, { title: 'only a title' }],
    ['PATCH', `/${collection}/${id}`, { extra: 'field' }],
    ['GET', `/${collection}/does-not-exist`],
    ['GET', `/${object}`],
    ['PATCH', `/${object}`, { added: 1 }],
  ] as const) {
    const res = await send(base, method, path, body);
    await res.arrayBuffer();
    statuses.push(res.status);
  }
  expect(statuses).toEqual([200, 200, 200, 200, 200, 201, 200, 404, 200, 200]);
  await stop(rec);
  return join(root, 'traffic.har');
}

describe('export --openapi, round trip', () => {
  it('db.json + its recorded traffic (--from-har): valid, served back with the same data, no drift', async () => {
    const root = await makeTempDir();
    await cp(join(FIXTURES, 'db.json'), join(root, 'db.json'));
    const original = JSON.parse(await readFile(join(root, 'db.json'), 'utf8'));
    const served = await startCli(CLI, ['db.json', '--port', '0', '--quiet'], root);
    const har = await recordTraffic(root, served.url, '/', 'todos', 1, 'profile');
    await stop(served);

    // From the data alone, and learned from the traffic.
    expect((await cli(['export', join(FIXTURES, 'db.json'), '--openapi', 'plain.yaml'], root)).code).toBe(0);
    const exported = await cli(['export', join(FIXTURES, 'db.json'), '--openapi', 'learned.json', '--from-har', har], root);
    expect(exported.out).toContain('learned.json');
    for (const file of ['plain.yaml', 'learned.json']) {
      const result = await validate(join(root, file));
      expect(result.valid, JSON.stringify(result)).toBe(true);
    }
    const plain = parseYaml(await readFile(join(root, 'plain.yaml'), 'utf8'));
    expect(Object.keys(plain.paths)).toEqual(['/todos', '/todos/{id}', '/users', '/users/{id}', '/profile']);
    expect(plain.paths['/todos/{id}'].get.responses['404'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' });
    expect(plain.components.schemas.Todo.properties.userId['x-mockyard-relation']).toBe('users');
    expect(plain.paths['/todos'].get.parameters.map((p: { name: string }) => p.name)).toEqual(expect.arrayContaining(['_page', '_limit', '_per_page', '_sort', '_order', 'q', '_expand', 'userId']));
    const learned = JSON.parse(await readFile(join(root, 'learned.json'), 'utf8'));
    expect(learned.components.schemas.Todo.required).toEqual(['id', 'title']); // a todo was posted with a title only
    expect(learned.components.schemas.Todo.properties.extra).toEqual({ type: 'string' });
    expect(learned.paths['/todos'].post.parameters).toContainEqual(expect.objectContaining({ name: 'x-client', in: 'header' }));

    // The learned document accepts the traffic it was learned from.
    const checked = await cli(['check', 'learned.json', har], root);
    expect(checked.out).toContain('10 exchange(s) checked');
    expect(checked.out).toContain('all match the document');
    expect(checked.code).toBe(0);
    // The data alone does not know that a todo may lack userId: the check says so.
    const drift = await cli(['check', 'plain.yaml', har], root);
    expect(drift.code).toBe(1);
    expect(drift.out).toContain('drift: POST /todos');

    // Served back: the same routes, the same data first.
    const back = await startCli(CLI, ['learned.json', '--port', '0', '--quiet'], root);
    expect(await (await send(back.url, 'GET', '/todos')).json()).toEqual(original.todos);
    expect(await (await send(back.url, 'GET', '/todos/2')).json()).toEqual(original.todos[1]);
    expect(await (await send(back.url, 'GET', '/users')).json()).toEqual(original.users);
    expect(await (await send(back.url, 'GET', '/profile')).json()).toEqual(original.profile);
    const created = await send(back.url, 'POST', '/todos', { title: 'new', userId: 1, tags: [] });
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({ title: 'new', userId: 1 });
    expect((await send(back.url, 'GET', '/todos/999')).status).toBe(404);
  }, 90_000);

  it('a folder of mocks: served under /api, exported with that server path, checked and served back', async () => {
    const root = await makeTempDir();
    await cp(join(FIXTURES, 'mocks'), join(root, 'mocks'), { recursive: true });
    const original = JSON.parse(await readFile(join(root, 'mocks', 'posts.json'), 'utf8'));
    const served = await startCli(CLI, ['--port', '0', '--quiet'], root);
    const har = await recordTraffic(root, served.url, '/api', 'posts', 'p1', 'settings');
    await stop(served);
    // Exported named as mockyard's own way (--fs-dir, as the default ./mocks it was served from): under /api as well.
    const exported = await cli(['export', '--fs-dir', join(FIXTURES, 'mocks'), '--openapi', 'api.yaml', '--from-har', har], root);
    expect(exported.code).toBe(0);
    expect((await validate(join(root, 'api.yaml'))).valid).toBe(true);
    const doc = parseYaml(await readFile(join(root, 'api.yaml'), 'utf8'));
    expect(doc.servers).toEqual([{ url: '/api' }]);
    expect(doc.paths['/posts/{id}'].parameters[0].schema).toEqual({ type: 'string' });
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/v1/tags', '/v1/tags/{id}'])); // a collection in a subfolder
    const checked = await cli(['check', 'api.yaml', har], root);
    expect(checked.out).toContain('all match the document');
    expect(checked.code).toBe(0);
    const back = await startCli(CLI, ['api.yaml', '--port', '0', '--quiet'], root);
    expect(await (await send(back.url, 'GET', '/api/posts')).json()).toEqual(original);
    expect(await (await send(back.url, 'GET', '/api/v1/tags')).json()).toEqual(JSON.parse(await readFile(join(FIXTURES, 'mocks', 'v1', 'tags.json'), 'utf8')));
    expect(await (await send(back.url, 'GET', '/api/settings')).json()).toEqual(JSON.parse(await readFile(join(FIXTURES, 'mocks', 'settings.json'), 'utf8')));
  }, 90_000);

  it('a folder given as json-server gives it (mockyard mocks): exported at /, checked and fetched there; --fs-dir and --prefix as serving names them', async () => {
    const root = await makeTempDir();
    await cp(join(FIXTURES, 'mocks'), join(root, 'mocks'), { recursive: true });
    const served = await startCli(CLI, ['mocks', '--port', '0', '--quiet'], root);
    const har = await recordTraffic(root, served.url, '/', 'posts', 'p1', 'settings');
    const exported = await cli(['export', 'mocks', '--openapi', 'root.yaml', '--from-har', har], root);
    expect(exported.code).toBe(0);
    const doc = parseYaml(await readFile(join(root, 'root.yaml'), 'utf8'));
    expect(doc.servers).toEqual([{ url: '/' }]);
    const checked = await cli(['check', 'root.yaml', har], root);
    expect(checked.out).toContain('all match the document');
    expect(checked.code).toBe(0);
    // The exported server path answers on `mockyard mocks` (not the wrong-prefix 404).
    const at = (path: string) => `${doc.servers[0].url.replace(/\/$/, '')}${path}`;
    const posts = await send(served.url, 'GET', at('/posts'));
    expect(posts.status).toBe(200);
    expect(await posts.json()).toEqual(JSON.parse(await readFile(join(root, 'mocks', 'posts.json'), 'utf8')));
    await stop(served);

    for (const [args, url] of [[[], '/api'], [['--fs-dir', 'mocks'], '/api'], [['mocks', '--prefix', '/v2'], '/v2'], [['--fs-dir', 'mocks', '--prefix', '/'], '/']] as const) {
      const out = await cli(['export', ...args, '--openapi', 'other.json'], root);
      expect(out.code, out.out).toBe(0);
      expect(JSON.parse(await readFile(join(root, 'other.json'), 'utf8')).servers).toEqual([{ url }]);
    }
    const both = await cli(['export', 'mocks', '--fs-dir', 'mocks', '--openapi', 'x.json'], root);
    expect(both.code).toBe(2);
  }, 90_000);

  it('--from-journal learns from a running server\'s devtools journal', async () => {
    const root = await makeTempDir();
    await cp(join(FIXTURES, 'db.json'), join(root, 'db.json'));
    const served = await startCli(CLI, ['db.json', '--port', '0', '--quiet'], root);
    expect((await send(served.url, 'POST', '/users', { name: 'Grace', team: 'compilers' })).status).toBe(201);
    expect((await send(served.url, 'GET', '/users?team=compilers')).status).toBe(200);
    const exported = await cli(['export', join(FIXTURES, 'db.json'), '--openapi', 'live.json', '--from-journal', served.url], root);
    expect(exported.code).toBe(0);
    expect((await validate(join(root, 'live.json'))).valid).toBe(true);
    const doc = JSON.parse(await readFile(join(root, 'live.json'), 'utf8'));
    expect(doc.components.schemas.User.properties.team).toEqual({ type: 'string' });
    expect(doc.components.schemas.User.required).toEqual(['id', 'name']);
    expect(doc.paths['/users'].get.parameters).toContainEqual(expect.objectContaining({ name: 'team', in: 'query' }));
    expect(doc.paths['/users'].post.parameters).toContainEqual(expect.objectContaining({ name: 'x-client', in: 'header' }));
  }, 90_000);
});
