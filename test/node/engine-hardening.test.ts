/**
 * The mock API's sharp edges, through a real node:http server on real temp dirs:
 * JSON nesting depth (item 3), query parameters on whole-file writes (4), upload validation
 * before the existence check (8), compressed request bodies (9), warnings for malformed JSON
 * files (13).
 */
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { LoggerSink } from '../../src/core/logger.js';
import type { MockApiOptions } from '../../src/engine/mock-api-options.js';
import { closeServers, rawRequest, startServer } from '../helpers/server.js';
import { makeTempDir, removeTempDirs } from '../helpers/temp-dir.js';

afterEach(async () => {
  await closeServers();
  await removeTempDirs();
});

const USERS = [{ id: 1, role: 'admin' }, { id: 2, role: 'viewer' }, { id: 3, role: 'admin' }];

async function setup(extra: Partial<MockApiOptions> = {}) {
  const root = await makeTempDir();
  const dir = join(root, 'mocks');
  await mkdir(join(dir, 'users'), { recursive: true });
  await writeFile(join(dir, 'users.json'), JSON.stringify(USERS));
  await writeFile(join(dir, 'users', '1.json'), JSON.stringify({ id: 1, name: 'Ada' }));
  const warnings: string[] = [];
  const logger: LoggerSink = { info: () => {}, warn: (m: unknown) => warnings.push(String(m).replace(/^\[mockyard\] /, '')), error: (m: unknown) => warnings.push(`error: ${String(m)}`) };
  const server = await startServer({ mock: { endpointPrefix: '/api', fsDir: dir, logLevel: 'warn', logger, ...extra } });
  return { dir, url: server.url, warnings };
}

const nested = (depth: number, inner = '1') => '['.repeat(depth) + inner + ']'.repeat(depth);
const objectNested = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

async function json(res: Response): Promise<{ status: number; message: string; body: Record<string, unknown> }> {
  const text = await res.text();
  const body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  return { status: res.status, message: String(body.message ?? ''), body };
}

function noInternals(message: string): void {
  expect(message).not.toMatch(/call stack|RangeError|Maximum/i);
}

describe('JSON nesting depth (maxJsonDepth, default 256)', () => {
  it('POST, PUT and PATCH bodies nested deeper than the limit → 400 naming it; nothing stored', async () => {
    const { url, dir } = await setup();
    const headers = { 'Content-Type': 'application/json' };
    const post = await json(await fetch(`${url}/api/deep`, { method: 'POST', headers, body: nested(5000) }));
    expect(post.status).toBe(400);
    expect(post.message).toMatch(/deeper than the limit of 256 levels/);
    expect(post.body.limit).toBe(256);
    await expect(stat(join(dir, 'deep.json'))).rejects.toThrow();

    const put = await json(await fetch(`${url}/api/deep`, { method: 'PUT', headers, body: objectNested(300) }));
    expect(put.status).toBe(400);
    expect(put.message).toMatch(/256/);

    for (const type of ['application/merge-patch+json', 'application/json-patch+json']) {
      const body = type.endsWith('json-patch+json') ? `[{"op":"add","path":"/x","value":${nested(5000)}}]` : objectNested(5000);
      const patch = await json(await fetch(`${url}/api/users/1`, { method: 'PATCH', headers: { 'Content-Type': type }, body }));
      expect(patch.status).toBe(400);
      expect(patch.message).toMatch(/PATCH body nests deeper than the limit of 256 levels/);
      noInternals(patch.message);
    }
    expect(JSON.parse(await readFile(join(dir, 'users', '1.json'), 'utf8'))).toEqual({ id: 1, name: 'Ada' });
  });

  it('exactly the limit is accepted; one level more is not', async () => {
    const { url } = await setup();
    const ok = await fetch(`${url}/api/edge`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: nested(256) });
    expect(ok.status).toBe(201);
    const over = await fetch(`${url}/api/edge2`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: nested(257) });
    expect(over.status).toBe(400);
    // The stored document can be patched (the merge result stays within the limit).
    const patched = await fetch(`${url}/api/edge`, { method: 'PATCH', headers: { 'Content-Type': 'application/merge-patch+json' }, body: '{"b":1}' });
    expect(patched.status).toBe(200);
  });

  it('a handler echoing req.body and a POST query with body filters answer 400, never 500', async () => {
    const { url } = await setup({
      handlers: [{ pattern: '/echo', method: 'POST', handle: (req, res) => res.json(req.body) }],
      filters: { POST: { type: 'body', filters: [{ key: 'role' }] } },
    });
    const echo = await json(await fetch(`${url}/api/echo`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: nested(5000) }));
    expect(echo.status).toBe(400);
    expect(echo.message).toMatch(/JSON body nests deeper than the limit of 256 levels/);
    const query = await json(await fetch(`${url}/api/users`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: `{"role":"admin","x":${nested(5000)}}` }));
    expect(query.status).toBe(400);
    expect(query.message).toMatch(/256/);
    const fine = await fetch(`${url}/api/users`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"role":"admin"}' });
    expect(fine.status).toBe(200);
    expect(await fine.json()).toEqual([USERS[0], USERS[2]]);
  });

  it('the limit is an option', async () => {
    const { url } = await setup({ maxJsonDepth: 3, handlers: [{ pattern: '/echo', method: 'POST', handle: (req) => req.body }] });
    const post = (body: string) => fetch(`${url}/api/echo`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
    expect(await (await post('{"a":[{"b":1}]}')).json()).toEqual({ a: [{ b: 1 }] });
    const deep = await json(await post('{"a":[{"b":{}}]}'));
    expect(deep.status).toBe(400);
    expect(deep.message).toMatch(/limit of 3 levels/);
    await expect(startServer({ mock: { endpointPrefix: '/api', fsDir: null, maxJsonDepth: 0 } })).rejects.toThrow(/maxJsonDepth/);
  });

  it('a WebSocket text frame nested deeper arrives as the string, so an echo handler still answers', async () => {
    const { url } = await setup({
      enableWs: true,
      wsHandlers: [{ pattern: '/ws', onMessage: (c, msg) => c.send({ type: typeof msg, msg }) }],
    });
    const ws = new WebSocket(`${url.replace('http', 'ws')}/api/ws`);
    try {
      await new Promise((resolve, reject) => { ws.once('open', resolve); ws.once('error', reject); });
      const next = () => new Promise<string>((resolve) => ws.once('message', (d: Buffer) => resolve(d.toString())));
      let reply = next();
      ws.send('{"a":[1]}');
      expect(JSON.parse(await reply)).toEqual({ type: 'object', msg: { a: [1] } });
      reply = next();
      ws.send(nested(5000));
      expect(JSON.parse(await reply)).toEqual({ type: 'string', msg: nested(5000) });
    } finally {
      ws.terminate();
    }
  });

  it('a file on disk nested deeper is served as stored, not queried; PATCH → 400; one warning', async () => {
    const { url, dir, warnings } = await setup({ filters: { GET: { type: 'query-param', filters: [{ key: 'role' }] } } });
    const deep = `[${nested(5000, '{"role":"admin"}')}]`;
    await writeFile(join(dir, 'deep.json'), deep);
    const get = await fetch(`${url}/api/deep?role=admin`);
    expect(get.status).toBe(200);
    expect(await get.text()).toBe(deep);
    expect(get.headers.get('x-total-count')).toBeNull();
    const patch = await json(await fetch(`${url}/api/deep`, { method: 'PATCH', headers: { 'Content-Type': 'application/json' }, body: '{"a":1}' }));
    expect(patch.status).toBe(400);
    expect(patch.message).toMatch(/stored resource nests deeper than the limit of 256 levels/);
    noInternals(patch.message);
    expect(await readFile(join(dir, 'deep.json'), 'utf8')).toBe(deep);
    const told = warnings.filter((w) => w.includes('deep.json'));
    expect(told).toHaveLength(1);
    expect(told[0]).toMatch(/^deep\.json: .*256 levels/);
  });
});

describe('query parameters on whole-file writes', () => {
  it('DELETE with a parameter no DELETE filter reads → 400 naming it; the file stays', async () => {
    const { url, dir } = await setup();
    const res = await json(await fetch(`${url}/api/users?id=3`, { method: 'DELETE' }));
    expect(res.status).toBe(400);
    expect(res.message).toMatch(/Unknown query parameter "id"/);
    expect(res.message).toMatch(/DELETE/);
    expect(res.body.parameters).toEqual(['id']);
    expect(JSON.parse(await readFile(join(dir, 'users.json'), 'utf8'))).toEqual(USERS);
  });

  it('PUT and PATCH too; several are all named; GET keeps ignoring them', async () => {
    const { url, dir } = await setup();
    const put = await json(await fetch(`${url}/api/users?id=3&force=1&id=4`, { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: '[]' }));
    expect(put.status).toBe(400);
    expect(put.message).toMatch(/parameters "id", "force"/);
    const patch = await json(await fetch(`${url}/api/users/1?name=x`, { method: 'PATCH', headers: { 'Content-Type': 'application/json' }, body: '{"name":"Bob"}' }));
    expect(patch.status).toBe(400);
    expect(patch.message).toMatch(/"name"/);
    expect(JSON.parse(await readFile(join(dir, 'users', '1.json'), 'utf8'))).toEqual({ id: 1, name: 'Ada' });
    const get = await fetch(`${url}/api/users?_=12345`);
    expect(get.status).toBe(200);
    expect(await get.json()).toEqual(USERS);
  });

  it('parameters a DELETE filter or pagination option reads work; others next to them are refused', async () => {
    const { url, dir } = await setup({
      filters: { DELETE: { type: 'query-param', filters: [{ key: 'id', valueType: 'number' }] } },
      pagination: { DELETE: { type: 'query-param', limit: 'limit' } },
    });
    const mixed = await json(await fetch(`${url}/api/users?id=3&dryRun=1`, { method: 'DELETE' }));
    expect(mixed.status).toBe(400);
    expect(mixed.message).toMatch(/"dryRun"/);
    expect(mixed.message).not.toMatch(/"id"/);
    const del = await fetch(`${url}/api/users?id=3&limit=1`, { method: 'DELETE' });
    expect(del.status).toBe(204);
    expect(del.headers.get('x-deleted-count')).toBe('1');
    expect(JSON.parse(await readFile(join(dir, 'users.json'), 'utf8'))).toEqual(USERS.slice(0, 2));
  });

  it('a handler\'s rewrite may consume query parameters', async () => {
    const { url, dir } = await setup({
      handlers: [{ pattern: '/user', method: 'DELETE', handle: 'FS', rewrite: (_path, req) => `/users/${String(req.query.id)}.json` }],
    });
    const del = await fetch(`${url}/api/user?id=1`, { method: 'DELETE' });
    expect(del.status).toBe(204);
    await expect(stat(join(dir, 'users', '1.json'))).rejects.toThrow();
  });
});

describe('POST validates the upload before the existence check', () => {
  const twoFiles = () => {
    const form = new FormData();
    form.append('a', new Blob(['{"x":1}'], { type: 'application/json' }), 'a.json');
    form.append('b', new Blob(['{"y":1}'], { type: 'application/json' }), 'b.json');
    return form;
  };
  const fileAndField = () => {
    const form = new FormData();
    form.append('a', new Blob(['{"x":1}'], { type: 'application/json' }), 'a.json');
    form.append('note', 'hello');
    return form;
  };

  it('an existing path answers the spec\'s 400s, not 409', async () => {
    const { url, dir } = await setup();
    const many = await json(await fetch(`${url}/api/users/1`, { method: 'POST', body: twoFiles() }));
    expect(many).toMatchObject({ status: 400, message: 'POST request with multiple file is not allowed' });
    const both = await json(await fetch(`${url}/api/users/1`, { method: 'POST', body: fileAndField() }));
    expect(both).toMatchObject({ status: 400, message: 'POST request with file and body is not allowed' });
    expect(JSON.parse(await readFile(join(dir, 'users', '1.json'), 'utf8'))).toEqual({ id: 1, name: 'Ada' });
    // A valid upload to an existing path is still the 409.
    const one = new FormData();
    one.append('a', new Blob(['{"x":1}'], { type: 'application/json' }), 'a.json');
    expect((await fetch(`${url}/api/users/1`, { method: 'POST', body: one })).status).toBe(409);
  });

  it('with POST filters configured an invalid upload is a 400, not a query', async () => {
    const { url } = await setup({ filters: { POST: { type: 'body', filters: [{ key: 'role' }] } } });
    const many = await json(await fetch(`${url}/api/users`, { method: 'POST', body: twoFiles() }));
    expect(many).toMatchObject({ status: 400, message: 'POST request with multiple file is not allowed' });
    const both = await json(await fetch(`${url}/api/users`, { method: 'POST', body: fileAndField() }));
    expect(both).toMatchObject({ status: 400, message: 'POST request with file and body is not allowed' });
  });
});

describe('compressed request bodies (Content-Encoding)', () => {
  it('gzip and deflate (zlib or raw) bodies are decoded for POST, PUT and PATCH', async () => {
    const { url, dir } = await setup();
    const post = await fetch(`${url}/api/made`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' }, body: gzipSync('{"id":9}') });
    expect(post.status).toBe(201);
    expect(await readFile(join(dir, 'made.json'), 'utf8')).toBe('{"id":9}');
    const put = await fetch(`${url}/api/made`, { method: 'PUT', headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'deflate' }, body: deflateSync('{"id":10}') });
    expect(put.status).toBe(200);
    expect(await readFile(join(dir, 'made.json'), 'utf8')).toBe('{"id":10}');
    const patch = await fetch(`${url}/api/made`, { method: 'PATCH', headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'deflate' }, body: deflateRawSync('{"ok":true}') });
    expect(patch.status).toBe(200);
    expect(await patch.json()).toEqual({ id: 10, ok: true });
    const twice = await fetch(`${url}/api/twice`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip, gzip' }, body: gzipSync(gzipSync('[1]')) });
    expect(twice.status).toBe(201);
    expect(await readFile(join(dir, 'twice.json'), 'utf8')).toBe('[1]');
  });

  it('handlers get the decoded body (JSON, form, multipart)', async () => {
    const { url } = await setup({ handlers: [{ pattern: '/echo', method: 'POST', handle: (req) => ({ body: req.body, files: req.files.map((f) => f.filename) }) }] });
    const jsonBody = await fetch(`${url}/api/echo`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' }, body: gzipSync('{"a":[1,2]}') });
    expect(await jsonBody.json()).toEqual({ body: { a: [1, 2] }, files: [] });
    const form = await fetch(`${url}/api/echo`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Content-Encoding': 'gzip' }, body: gzipSync('x=1&y=2') });
    expect(await form.json()).toEqual({ body: { x: '1', y: '2' }, files: [] });
    const boundary = 'XyZ';
    const multipart = `--${boundary}\r\nContent-Disposition: form-data; name="f"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nhi\r\n--${boundary}--\r\n`;
    const mp = await fetch(`${url}/api/echo`, { method: 'POST', headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}`, 'Content-Encoding': 'gzip' }, body: gzipSync(multipart) });
    expect(await mp.json()).toEqual({ body: {}, files: ['a.txt'] });
  });

  it('the decoded size is bounded by bodyLimit: a gzip bomb is a 413', async () => {
    const { url } = await setup({ bodyLimit: 64 * 1024 });
    const bomb = gzipSync(Buffer.alloc(50 * 1024 * 1024, 0x20));
    expect(bomb.byteLength).toBeLessThan(64 * 1024);
    const res = await json(await fetch(`${url}/api/bomb`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' }, body: bomb }));
    expect(res.status).toBe(413);
    expect(res.message).toMatch(/Decompressed request body exceeds the limit of 65536 bytes/);
  });

  it('an unknown encoding → 415 naming it; corrupt data → 400', async () => {
    const { url } = await setup();
    const raw = await rawRequest(url, { method: 'POST', path: '/api/x', headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'br' }, body: 'whatever' });
    expect(raw.status).toBe(415);
    expect(JSON.parse(raw.body.toString()).message).toBe('Unsupported Content-Encoding "br" (supported: gzip, deflate)');
    expect(raw.headers['accept-encoding']).toBe('gzip, deflate');
    const bad = await json(await fetch(`${url}/api/x`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' }, body: 'not gzip at all' }));
    expect(bad.status).toBe(400);
    expect(bad.message).toMatch(/^Malformed gzip body/);
  });
});

describe('malformed JSON files', () => {
  it('are served as stored, with one warning per file version naming the path, line and column', async () => {
    const { url, dir, warnings } = await setup();
    await mkdir(join(dir, 'broken'));
    const file = join(dir, 'broken', 'bad.json');
    await writeFile(file, '{\n  "a": 1,\n  "b": [1, 2,, 3]\n}\n');
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${url}/api/broken/bad`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(await res.text()).toBe('{\n  "a": 1,\n  "b": [1, 2,, 3]\n}\n');
    }
    expect(warnings).toEqual(['broken/bad.json is not valid JSON (line 3, column 14: unexpected character ","); served as stored']);
    // A new version of the file is told again.
    await writeFile(file, '{"a": tru}');
    expect(await (await fetch(`${url}/api/broken/bad`)).text()).toBe('{"a": tru}');
    expect(warnings).toHaveLength(2);
    expect(warnings[1]).toBe('broken/bad.json is not valid JSON (line 1, column 7: unexpected character "t"); served as stored');
    expect(warnings.join('\n')).not.toContain(dir);
  });
});
