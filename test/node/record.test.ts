/**
 * `proxy.record`: proxied answers become mock files (names the lookup finds, JSON pretty-printed,
 * binary byte for byte, gzip decoded, never overwriting unless asked) and a HAR 1.2 log with
 * secrets redacted; replaying is plain serving. Real upstream, real disk, real HTTP.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import type { MockApi } from '../../src/engine/create-mock-api.js';
import { createNodeMockApi as createMockApi } from '../../src/node/engines.js'; // the `mockyard` entry under Node: fsDir on disk
import type { ProxyOptions } from '../../src/engine/types.js';
import type { MockApiOptions } from '../../src/engine/mock-api-options.js';
import { listFiles as files } from '../helpers/cli-run.js';
import { harErrors } from '../helpers/har-schema.js';
import { closeServers, startServer } from '../helpers/server.js';
import { makeTempDir, removeTempDirs } from '../helpers/temp-dir.js';
import { closeUpstreams, startUpstream, type Upstream } from '../helpers/upstream.js';

afterEach(async () => {
  await closeServers();
  await closeUpstreams();
  await removeTempDirs();
});

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff, 0xfe, 0x80, 0x7f, 0x00]);
const USERS = [{ id: 1, name: 'Ada' }, { id: 2, name: 'Linus' }];

async function api(upstream: Upstream, extra: Partial<ProxyOptions> = {}, mock: Partial<MockApiOptions> = {}) {
  const dir = join(await makeTempDir(), 'mocks');
  await mkdir(dir, { recursive: true });
  const engine = createMockApi({ endpointPrefix: '/api', fsDir: dir, logLevel: 'silent', proxy: { target: upstream.url, record: true, ...extra }, ...mock });
  const server = await startServer({ mock: engine });
  return { dir, engine, url: server.url };
}

function realApi(): Promise<Upstream> {
  return startUpstream((req, res) => {
    const url = new URL(req.url!, 'http://x');
    const send = (status: number, type: string, body: string | Uint8Array, headers: Record<string, string | string[]> = {}) => {
      res.writeHead(status, { 'content-type': type, ...headers });
      res.end(body);
    };
    if (req.method === 'POST') return send(201, 'application/json', '{"id":3}');
    switch (url.pathname) {
      case '/api/users': return url.search ? send(200, 'application/json', JSON.stringify({ page: url.searchParams.get('page') })) : send(200, 'application/json; charset=utf-8', JSON.stringify(USERS), { 'set-cookie': ['session=s3cr3t-cookie; HttpOnly'] });
      case '/api/users/1': return send(200, 'application/json', JSON.stringify(USERS[0]));
      case '/api/login': return send(200, 'application/json', '{"ok":true}', { 'x-csrf-token': 'csrf-999', 'x-session-id': 'sess-111', 'x-request-id': 'req-1' });
      case '/api/logo': return send(200, 'image/png', PNG);
      case '/api/zipped': return send(200, 'application/json', gzipSync(JSON.stringify({ zipped: true })), { 'content-encoding': 'gzip' });
      case '/api/': return send(200, 'application/json', '{"root":true}');
      case '/api/broken': return send(500, 'application/json', '{"error":"boom"}');
      case '/api/empty': res.writeHead(204).end(); return;
      default: return send(404, 'application/json', '{}');
    }
  });
}

async function get(engine: MockApi, url: string, path: string, init?: RequestInit) {
  const r = await fetch(`${url}${path}`, init);
  const body = new Uint8Array(await r.arrayBuffer());
  await engine.recorder!.settled();
  return { status: r.status, body };
}

describe('record', () => {
  it('writes every proxied 2xx GET where the lookup finds it; JSON pretty-printed, binary byte for byte, gzip decoded', async () => {
    const upstream = await realApi();
    const { dir, engine, url } = await api(upstream);
    // A query variant first: once users.json exists, file mode answers /api/users?… from it.
    await get(engine, url, '/api/users?page=2&a=x%2Fy');
    const users = await get(engine, url, '/api/users');
    expect(JSON.parse(Buffer.from(users.body).toString())).toEqual(USERS);
    await get(engine, url, '/api/users/1');
    expect(Buffer.from((await get(engine, url, '/api/logo')).body)).toEqual(Buffer.from(PNG));
    await get(engine, url, '/api/zipped');
    await get(engine, url, '/api/');
    expect((await get(engine, url, '/api/broken')).status).toBe(500);
    expect((await get(engine, url, '/api/empty')).status).toBe(204);

    // Each path's answers (every status, meaningful headers) are in its <name>@recorded.json too.
    expect(await files(dir)).toEqual(['index.json', 'logo.png', 'users.json', 'users@a=x%2Fy&page=2.json', 'zipped.json', 'users/1.json',
      'broken@recorded.json', 'empty@recorded.json', 'index@recorded.json', 'logo@recorded.json', 'users/1@recorded.json', 'users@recorded.json', 'zipped@recorded.json'].sort());
    expect(await readFile(join(dir, 'users.json'), 'utf8')).toBe(`${JSON.stringify(USERS, null, 2)}\n`);
    expect(await readFile(join(dir, 'users', '1.json'), 'utf8')).toBe(`${JSON.stringify(USERS[0], null, 2)}\n`);
    expect(await readFile(join(dir, 'logo.png'))).toEqual(Buffer.from(PNG));
    expect(JSON.parse(await readFile(join(dir, 'zipped.json'), 'utf8'))).toEqual({ zipped: true });
    expect(JSON.parse(await readFile(join(dir, 'users@a=x%2Fy&page=2.json'), 'utf8'))).toEqual({ page: '2' });
  });

  it('replaying is plain serving: with the upstream stopped, the recorded files answer the same requests', async () => {
    const upstream = await realApi();
    const { dir, engine, url } = await api(upstream);
    const before = new Map<string, Uint8Array>();
    for (const path of ['/api/users', '/api/users/1', '/api/logo', '/api/zipped', '/api/']) before.set(path, (await get(engine, url, path)).body);
    await upstream.close();
    const replay = await startServer({ mock: { endpointPrefix: '/api', fsDir: dir, logLevel: 'silent' } });
    for (const [path, body] of before) {
      const r = await fetch(`${replay.url}${path}`);
      expect(r.status).toBe(200);
      const replayed = new Uint8Array(await r.arrayBuffer());
      if (path === '/api/logo') {
        expect(r.headers.get('content-type')).toBe('image/png');
        expect(Buffer.from(replayed)).toEqual(Buffer.from(body));
      } else expect(JSON.parse(Buffer.from(replayed).toString())).toEqual(JSON.parse(Buffer.from(body).toString()));
    }
    // The recording engine itself now serves from its files too (the proxy is never reached).
    expect((await fetch(`${url}/api/users/1`)).status).toBe(200);
  });

  it('never replaces an existing file unless overwrite is on; a kept hand-written file gets no recording; writes are recorded', async () => {
    const upstream = await realApi();
    for (const overwrite of [false, true]) {
      const { dir, engine, url } = await api(upstream, { record: { overwrite, serveFiles: false } });
      await writeFile(join(dir, 'users.json'), '{"hand":"written"}');
      const r = await get(engine, url, '/api/users');
      expect(JSON.parse(Buffer.from(r.body).toString())).toEqual(USERS); // serveFiles: false → proxied
      const onDisk = JSON.parse(await readFile(join(dir, 'users.json'), 'utf8'));
      expect(onDisk).toEqual(overwrite ? USERS : { hand: 'written' });
      // A proxied POST is recorded with its body and answer (no body file: only 2xx GETs get one).
      expect((await get(engine, url, '/api/orders', { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } })).status).toBe(201);
      expect(await files(dir)).toEqual(overwrite ? ['orders@recorded.json', 'users.json', 'users@recorded.json'] : ['orders@recorded.json', 'users.json']);
    }
  });

  it('keeps a HAR 1.2 log that validates against the HAR schema, with secrets redacted', async () => {
    const upstream = await realApi();
    const { engine, url, dir } = await api(upstream, { headers: { 'X-Api-Key': 'key-from-config' }, record: { redact: ['X-Trace'] } });
    await get(engine, url, '/api/users', { headers: { authorization: 'Bearer tok-123', cookie: 'sid=cookie-456', 'x-trace': 'trace-789', 'x-plain': 'visible' } });
    await get(engine, url, '/api/logo');
    await get(engine, url, '/api/broken');
    const har = engine.recorder!.har();
    expect(harErrors(har)).toEqual([]);
    expect(har.log.version).toBe('1.2');
    expect(har.log.entries.map((e) => [e.request.method, e.request.url, e.response.status])).toEqual([
      ['GET', `${upstream.url}/api/users`, 200],
      ['GET', `${upstream.url}/api/logo`, 200],
      ['GET', `${upstream.url}/api/broken`, 500],
    ]);
    const text = JSON.stringify(har);
    for (const secret of ['tok-123', 'cookie-456', 'trace-789', 'key-from-config', 's3cr3t-cookie']) expect(text).not.toContain(secret);
    const first = har.log.entries[0]!;
    expect(first.request.headers).toContainEqual({ name: 'authorization', value: '[redacted]' });
    expect(first.request.headers).toContainEqual({ name: 'x-plain', value: 'visible' });
    expect(first.response.headers).toContainEqual({ name: 'set-cookie', value: '[redacted]' });
    expect(JSON.parse(first.response.content.text!)).toEqual(USERS);
    const logo = har.log.entries[1]!.response.content;
    expect(logo.encoding).toBe('base64');
    expect(Buffer.from(logo.text!, 'base64')).toEqual(Buffer.from(PNG));
    // The files hold bodies only: no header ever reaches them.
    for (const f of await files(dir)) expect(await readFile(join(dir, f), 'latin1')).not.toMatch(/tok-123|cookie-456|s3cr3t/);
  });

  it('headers named as credentials (X-Auth-Token, X-CSRF-Token, X-Session-Id…) are redacted in the HAR and never written to the folder', async () => {
    const upstream = await realApi();
    const { engine, url, dir } = await api(upstream);
    await get(engine, url, '/api/login', { headers: { 'x-auth-token': 'tok-555', 'x-api-key': 'key-777', 'x-authorization': 'az-333', 'x_api_key': 'key-888', 'x-plain': 'visible' } });
    const text = JSON.stringify(engine.recorder!.har());
    for (const secret of ['tok-555', 'key-777', 'az-333', 'key-888', 'csrf-999', 'sess-111']) expect(text).not.toContain(secret);
    expect(text).toContain('visible');
    const recording = JSON.parse(await readFile(join(dir, 'login@recorded.json'), 'utf8'));
    expect(recording.recorded[0].response.headers).toEqual({ 'content-type': 'application/json', 'x-request-id': 'req-1' });
  });

  it('record needs a file folder', () => {
    expect(() => createMockApi({ endpointPrefix: '/api', fsDir: null, logLevel: 'silent', proxy: { target: 'http://127.0.0.1:9', record: true } })).toThrow(/mock\.proxy\.record/);
  });
});

describe('record: a client that leaves', () => {
  it('releases the target: an endless download the client gave up on is not read on for the recording, nor recorded (the proxy drops the exchange when the client goes away, which ends the recorder copy too)', async () => {
    let upstreamClosed!: () => void;
    const closed = new Promise<void>((resolve) => (upstreamClosed = resolve));
    const upstream = await startUpstream((_req, res) => {
      res.on('close', () => upstreamClosed());
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.write(new Uint8Array(1024)); // then never ends
    }, { streaming: true });
    const { dir, engine, url } = await api(upstream);
    const leave = new AbortController();
    const r = await fetch(`${url}/api/download`, { signal: leave.signal });
    const reader = r.body!.getReader();
    expect((await reader.read()).value!.byteLength).toBeGreaterThan(0);
    leave.abort();
    await closed; // without the client, nobody reads the target any more
    await engine.recorder!.settled();
    expect(engine.recorder!.har().log.entries).toEqual([]);
    expect(await files(dir)).toEqual([]);
  });
});
