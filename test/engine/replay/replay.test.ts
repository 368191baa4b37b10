/**
 * The replay rules one by one, through the engine (memoryFs): hand-written recordings
 * (`<name>@recorded.json`: text/base64/file bodies, any-body writes, HEAD from GET, a broken one),
 * request-body keys (JSON canonical), the kept headers, and HAR logs (compressed and base64
 * bodies, failed entries, `_file`, tie-break by request headers, entries outside the prefix).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { createMockApi } from '../../../src/engine/create-mock-api.js';
import { bodyKey, jsonBodyKey } from '../../../src/engine/recordings/body-key.js';
import { keptHeaders } from '../../../src/engine/recordings/kept-headers.js';
import { addToRecording } from '../../../src/engine/recordings/recording-file.js';
import { memoryFs } from '../../../src/vfs/memory.js';

const enc = new TextEncoder();
const call = async (api: ReturnType<typeof createMockApi>, path: string, init?: RequestInit) => (await api.handle(new Request(`http://x${path}`, init)))!;

describe('request body keys', () => {
  it('JSON compares canonically (key order at every level), other text as text, bytes as bytes', () => {
    expect(bodyKey(enc.encode('{"b":1,"a":{"d":[1,2],"c":null}}'))).toBe(bodyKey(enc.encode(' {"a":{"c":null,"d":[1,2]},"b":1}')));
    expect(bodyKey(enc.encode('{"a":[1,2]}'))).not.toBe(bodyKey(enc.encode('{"a":[2,1]}')));
    expect(bodyKey(enc.encode('{"a":1}'))).toBe(jsonBodyKey({ a: 1 }));
    expect(bodyKey(enc.encode('name=Ann'))).toBe('text:name=Ann');
    expect(bodyKey(new Uint8Array([0xff, 0x00]))).toBe('bytes:/wA=');
    expect(bodyKey(new Uint8Array(0))).toBe('');
  });
});

describe('kept headers', () => {
  it('keeps the meaningful ones, never cookies, credentials, hop-by-hop or framing', () => {
    expect(keptHeaders([
      ['Content-Type', 'application/json'], ['X-Total-Count', '3'], ['Link', '<a>'], ['Link', '<b>'], ['ETag', '"1"'], ['X-Custom', 'yes'],
      ['Set-Cookie', 's=1'], ['Authorization', 'x'], ['Proxy-Authenticate', 'x'], ['Connection', 'close'], ['Transfer-Encoding', 'chunked'],
      ['Content-Length', '9'], ['Content-Encoding', 'gzip'], ['X-Forwarded-Host', 'h'], ['X-Api-Key', 'k'], ['Server', 'nginx'],
    ], new Set(['x-api-key']))).toEqual({ 'content-type': 'application/json', 'x-total-count': '3', link: '<a>, <b>', etag: '"1"', 'x-custom': 'yes' });
  });
});

describe('hand-written recordings', () => {
  const recording = {
    recorded: [
      { request: { method: 'GET' }, response: { status: 200, headers: { 'Content-Type': 'application/json', 'X-Total-Count': '9' }, file: 'users.json' } },
      { request: { method: 'GET', query: 'b=2&a=1' }, response: { status: 200, headers: { 'content-type': 'text/csv' }, text: 'id\n1\n' } },
      { request: { method: 'GET', query: 'format=bin' }, response: { status: 200, headers: { 'content-type': 'application/octet-stream' }, base64: '/wA=' } },
      { request: { method: 'POST' }, response: { status: 201, headers: { location: '/api/users/1' }, body: { id: 1 } } },
      { request: { method: 'PUT', body: { name: 'Ann', tags: ['a'] } }, response: { status: 200, body: { ok: 'ann' } } },
      { request: { method: 'PUT', text: 'plain' }, response: { status: 409, text: 'conflict' } },
      { request: { method: 'DELETE' }, response: { status: 204 } },
    ],
  };

  it('serve every body form with its status and headers; HEAD takes GET\'s; writes match their body', async () => {
    const api = createMockApi({ endpointPrefix: '/api', fs: memoryFs({ 'users.json': [{ id: 1 }], 'users@recorded.json': recording }), logLevel: 'silent' });
    const list = await call(api, '/api/users');
    expect(list.headers.get('x-total-count')).toBe('9');
    expect(await list.json()).toEqual([{ id: 1 }]);
    const head = await call(api, '/api/users', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('x-total-count')).toBe('9');
    expect(await head.text()).toBe('');
    expect(await (await call(api, '/api/users?a=1&b=2')).text()).toBe('id\n1\n');
    expect(new Uint8Array(await (await call(api, '/api/users?format=bin')).arrayBuffer())).toEqual(new Uint8Array([0xff, 0]));
    const created = await call(api, '/api/users', { method: 'POST', body: 'anything at all' });
    expect([created.status, created.headers.get('location'), created.headers.get('content-type')]).toEqual([201, '/api/users/1', 'application/json']);
    expect(await (await call(api, '/api/users', { method: 'PUT', body: '{"tags":["a"],"name":"Ann"}' })).json()).toEqual({ ok: 'ann' });
    const plain = await call(api, '/api/users', { method: 'PUT', body: 'plain' });
    expect([plain.status, await plain.text()]).toEqual([409, 'conflict']);
    const other = await call(api, '/api/users', { method: 'PUT', body: '{"name":"Bob"}' });
    expect(other.status).toBe(404);
    expect(((await other.json()) as { recorded: string[] }).recorded[0]).toBe('PUT /api/users (with a recorded body)');
    expect((await call(api, '/api/users', { method: 'DELETE' })).status).toBe(204);
    expect((await call(api, '/api/users', { method: 'PATCH', body: '{}' })).status).toBe(404);
  });

  it('an edit is served at once; a broken recording answers 500 naming the file and the entry', async () => {
    const fs = memoryFs({ 'a@recorded.json': { recorded: [{ request: { method: 'GET' }, response: { status: 200, text: 'one' } }] } });
    const api = createMockApi({ endpointPrefix: '/api', fs, logLevel: 'silent' });
    expect(await (await call(api, '/api/a')).text()).toBe('one');
    await fs.write('a@recorded.json', JSON.stringify({ recorded: [{ request: { method: 'GET' }, response: { status: 200, text: 'two' } }] }));
    expect(await (await call(api, '/api/a')).text()).toBe('two');
    await fs.write('a@recorded.json', JSON.stringify({ recorded: [{ request: { method: 'GET' }, response: { status: 99 } }] }));
    const broken = await call(api, '/api/a');
    expect(broken.status).toBe(500);
    expect(((await broken.json()) as { message: string }).message).toBe('Invalid recording a@recorded.json: recorded[0].response.status must be a final HTTP status (200-599)');
    await fs.write('a@recorded.json', JSON.stringify({ recorded: [{ request: { method: 'GET' }, response: { status: 200, file: 'gone.json' } }] }));
    expect((await call(api, '/api/a')).status).toBe(500);
  });

  it('a later recording of the same request is kept out unless overwrite; another body is added', () => {
    const first = addToRecording(null, { request: { method: 'POST', body: { a: 1, b: 2 } }, response: { status: 201 } }, false);
    const same = addToRecording(first.text, { request: { method: 'POST', body: { b: 2, a: 1 } }, response: { status: 500 } }, false);
    expect(same.changed).toBe(false);
    const replaced = addToRecording(first.text, { request: { method: 'POST', body: { b: 2, a: 1 } }, response: { status: 500 } }, true);
    expect(JSON.parse(replaced.text).recorded.map((x: any) => x.response.status)).toEqual([500]);
    const added = addToRecording(first.text, { request: { method: 'POST', body: { a: 2 } }, response: { status: 201 } }, false);
    expect(JSON.parse(added.text).recorded).toHaveLength(2);
  });
});

const entry = (method: string, url: string, status: number, content: Record<string, unknown>, extra: { requestHeaders?: unknown[]; headers?: unknown[]; postData?: unknown } = {}) => ({
  request: { method, url, headers: extra.requestHeaders ?? [], ...(extra.postData ? { postData: extra.postData } : {}) },
  response: { status, headers: extra.headers ?? [], content },
});

describe('HAR logs (mock.har)', () => {
  it('inflates bodies still compressed, decodes base64, skips failed entries and paths outside the prefix, ties by request headers', async () => {
    const gz = gzipSync(JSON.stringify({ compressed: true })).toString('base64');
    const har = {
      log: {
        entries: [
          entry('GET', 'https://h.example/api/z', 200, { mimeType: 'application/json', text: gz, encoding: 'base64' }, { headers: [{ name: 'Content-Encoding', value: 'gzip' }, { name: 'Content-Type', value: 'application/json' }] }),
          entry('GET', 'https://h.example/api/failed', 0, {}),
          entry('GET', 'https://h.example/other/x', 200, { text: 'outside' }),
          entry('GET', 'https://h.example/api/lang', 200, { text: 'english' }, { requestHeaders: [{ name: 'Accept-Language', value: 'en' }] }),
          entry('GET', 'https://h.example/api/lang', 200, { text: 'french' }, { requestHeaders: [{ name: 'Accept-Language', value: 'fr' }] }),
          entry('POST', 'https://h.example/api/form', 200, { text: 'form ok' }, { postData: { mimeType: 'application/x-www-form-urlencoded', params: [{ name: 'a', value: '1' }] } }),
        ],
      },
    };
    const api = createMockApi({ endpointPrefix: '/api', fsDir: null, logLevel: 'silent', har });
    const z = await call(api, '/api/z');
    expect(z.headers.get('content-encoding')).toBeNull();
    expect(await z.json()).toEqual({ compressed: true });
    expect((await call(api, '/api/failed')).status).toBe(404);
    expect(await api.handle(new Request('http://x/other/x'))).toBeUndefined();
    expect(await (await call(api, '/api/lang')).text()).toBe('english');
    expect(await (await call(api, '/api/lang', { headers: { 'accept-language': 'fr' } })).text()).toBe('french');
    expect(await (await call(api, '/api/form', { method: 'POST', body: 'a=1' })).text()).toBe('form ok');
  });

  it('refuses, at start-up, what it cannot serve: not a log, a bad entry, bodies kept outside the log', () => {
    const make = (har: unknown) => () => createMockApi({ endpointPrefix: '/api', fsDir: null, logLevel: 'silent', har: har as never });
    expect(make({ entries: [] })).toThrow(/option "mock\.har" is not a HAR log/);
    expect(make({ log: { entries: [entry('GET', 'https://h/api/x', 'ok' as never, {})] } })).toThrow(/log\.entries\[0\]\.response\.status must be a number/);
    expect(make({ log: { entries: [entry('GET', 'https://h/api/x', 200, { _file: 'abc.json' })] } })).toThrow(/content: 'embed'/);
    expect(make({ log: { entries: [entry('GET', 'https://h/api/x', 200, { text: '%%%', encoding: 'base64' })] } })).toThrow(/is not valid base64/);
    expect(make({ log: { entries: [entry('GET', 'https://h/api/x', 200, { text: 'x' }, { headers: [{ name: 'X-Bad', value: 'a\r\nSet-Cookie: s=1' }] })] } })).toThrow(/response\.headers \(x-bad\) has a value that cannot be sent/);
    expect(make('traffic.har')).toThrow(/is a file path .* which this runtime cannot read: give the HAR object/);
  });
});

describe('measured against Playwright\'s routeFromHAR (test/fixtures/playwright, playwright-core 1.65.1)', () => {
  it('same answers where the rules agree; where they differ, mockyard matches reordered JSON and queries, and never answers another body\'s write', async () => {
    const dir = join(import.meta.dirname, '..', '..', 'fixtures', 'playwright');
    const har = JSON.parse(readFileSync(join(dir, 'route-from-har.har'), 'utf8'));
    const peer = JSON.parse(readFileSync(join(dir, 'route-from-har.json'), 'utf8')).results as Record<string, string>;
    const api = createMockApi({ endpointPrefix: '/', fsDir: null, logLevel: 'silent', har });
    const ours = async (path: string, init?: RequestInit) => {
      const r = await call(api, path, init);
      return `${r.status} ${r.status === 404 ? 'not recorded' : await r.text()}`;
    };
    const json = { 'content-type': 'application/json' };
    // The same as the peer: repeated entries → the first, every time; ties → most request headers equal; POST bodies compared.
    expect(await ours('/twice')).toBe(peer['GET /twice, first call']);
    expect(await ours('/twice')).toBe(peer['GET /twice, second call']);
    expect(await ours('/lang', { headers: { 'accept-language': 'fr' } })).toBe(peer['GET /lang, Accept-Language: fr']);
    expect(await ours('/post', { method: 'POST', headers: json, body: '{"name":"Bob"}' })).toBe(peer['POST /post {"name":"Bob"}']);
    // Differences, on purpose (docs/proxy.md):
    expect(peer['POST /post {"role":"admin","name":"Ann"} (keys reordered)']).toMatch(/^failed/);
    expect(await ours('/post', { method: 'POST', headers: json, body: '{"role":"admin","name":"Ann"}' })).toBe('200 posted ann'); // JSON compared canonically
    expect(peer['PUT /put {"name":"Zed"} (another body)']).toBe('200 put ann'); // the peer compares POST bodies only
    expect(await ours('/put', { method: 'PUT', headers: json, body: '{"name":"Zed"}' })).toBe('404 not recorded');
    expect(peer['GET /q?b=1&a=2 (parameters reordered)']).toMatch(/^failed/);
    expect(await ours('/q?b=1&a=2')).toBe('200 query a then b'); // the query in any parameter order
  });
});

describe('what cannot be sent', () => {
  it('a reason phrase with CR/LF is dropped; a 1xx HAR entry is skipped', async () => {
    const fs = memoryFs({ 'a@recorded.json': { recorded: [{ request: { method: 'GET' }, response: { status: 200, statusText: 'OK\r\nX-Evil: 1', text: 'a' } }] } });
    const api = createMockApi({ endpointPrefix: '/api', fs, logLevel: 'silent', har: { log: { entries: [entry('GET', 'https://h/api/early', 103, {})] } } });
    const a = await call(api, '/api/a');
    expect([a.status, a.statusText, a.headers.get('x-evil')]).toEqual([200, '', null]);
    expect((await call(api, '/api/early')).status).toBe(404);
  });
});

describe('recordings of names with an @', () => {
  it('are found like any other (the folder index lists the name before the first @)', async () => {
    const api = createMockApi({ endpointPrefix: '/api', fs: memoryFs({ 'me@home@recorded.json': { recorded: [{ request: { method: 'GET' }, response: { status: 418, text: 'teapot' } }] } }), logLevel: 'silent' });
    const r = await call(api, '/api/me@home');
    expect([r.status, await r.text()]).toEqual([418, 'teapot']);
  });
});
