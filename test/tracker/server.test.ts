/**
 * The collector behind the real node host: serve() on 127.0.0.1:0, real fetch and real `ws`
 * clients, real temp dirs.
 */
import { appendFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { serve, type RunningServer } from '../../src/node/serve.js';
import { createCollector } from '../../src/tracker/collector.js';
import type { Collector, CollectorOptions } from '../../src/tracker/types.js';
import { diskFs } from '../../src/vfs/disk.js';
import { makeTempDir, removeTempDirs } from '../helpers/temp-dir.js';
import { batch, ev, recordingLogger } from './collector-client.js';
import { rawRequest } from '../helpers/server.js';

const running: Array<{ server: RunningServer; collector: Collector }> = [];
afterEach(async () => {
  for (const { server, collector } of running.splice(0)) {
    await server.close();
    await collector.close();
  }
});
afterAll(removeTempDirs);

async function start(options: Partial<CollectorOptions> = {}) {
  const collector = createCollector({ appId: 'it', logLevel: 'silent', ...options });
  const server = await serve({ engines: [collector], port: 0, logLevel: 'silent' });
  running.push({ server, collector });
  return { url: server.url, collector, server };
}

async function stop(server: RunningServer, collector: Collector) {
  const i = running.findIndex((r) => r.server === server);
  running.splice(i, 1);
  await server.close();
  await collector.close();
}

const T = '2026-03-01T10:00:00.000Z';
const DAY = 'since=2026-03-01T00:00:00Z&until=2026-03-01T23:59:59.999Z';

function post(url: string, body: unknown, init: { gzip?: boolean; raw?: Uint8Array | string; headers?: Record<string, string>; query?: string } = {}) {
  let bytes: Uint8Array | string = init.raw ?? JSON.stringify(body);
  const headers: Record<string, string> = { 'content-type': 'application/json', ...init.headers };
  if (init.gzip) {
    bytes = gzipSync(bytes);
    headers['content-encoding'] = 'gzip';
  }
  return fetch(`${url}/_tracker/events${init.query ?? ''}`, { method: 'POST', body: bytes as BodyInit, headers });
}

async function readDay(url: string, headers: Record<string, string> = {}, extra = '') {
  const res = await fetch(`${url}/_tracker?${DAY}${extra}`, { headers });
  return { res, body: res.status === 200 ? ((await res.json()) as any) : await res.json() };
}

function openWs(url: string): Promise<{ ws: WebSocket; messages: any[]; next(n?: number): Promise<any[]>; closed: Promise<number> }> {
  const ws = new WebSocket(`${url.replace('http', 'ws')}/_tracker/ws`);
  const messages: any[] = [];
  const waiters: Array<() => void> = [];
  ws.on('message', (d) => {
    messages.push(JSON.parse(String(d)));
    for (const w of waiters.splice(0)) w();
  });
  const closed = new Promise<number>((r) => ws.on('close', (code) => {
    for (const w of waiters.splice(0)) w();
    r(code);
  }));
  const next = async (n = messages.length + 1) => {
    while (messages.length < n && ws.readyState !== WebSocket.CLOSED) await new Promise<void>((r) => waiters.push(r));
    return messages;
  };
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve({ ws, messages, next, closed }));
    ws.once('error', reject);
  });
}

describe('collector over real HTTP', () => {
  it('a client without Accept-Encoding (plain curl) reads plain JSON; one that takes gzip gets gzip', async () => {
    const { url } = await start({ apiKey: 'k' });
    const key = { 'x-tracker-key': 'k' };
    expect((await post(url, batch([ev(T, { n: 'one' })]), { headers: key })).status).toBe(200);
    // node:http sends no Accept-Encoding of its own (as curl without --compressed)
    const plain = await rawRequest(url, { path: `/_tracker?${DAY}`, headers: key });
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toMatch(/Accept-Encoding/);
    expect(JSON.parse(plain.body.toString('utf8')).events.map((e: any) => e.n)).toEqual(['one']);
    const zipped = await rawRequest(url, { path: `/_tracker?${DAY}`, headers: { ...key, 'accept-encoding': 'gzip, deflate, br' } });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect([zipped.body[0], zipped.body[1]]).toEqual([0x1f, 0x8b]);
  });

  it('plain, gzip, magic-byte and beacon ingest; read gzip-encoded, newest first across mixed offsets', async () => {
    const { url } = await start({ apiKey: 'k' });
    const key = { 'x-tracker-key': 'k' };
    expect((await post(url, batch([ev(T, { n: 'plain' })]), { headers: key })).status).toBe(200);
    expect(await (await post(url, batch([ev('2026-03-01T12:00:01+02:00', { n: 'gzip' })]), { gzip: true, headers: key })).json()).toEqual({ ok: true, saved: 1 });
    expect((await post(url, undefined, { raw: gzipSync(JSON.stringify(batch([ev('2026-03-01T09:00:02-01:00', { n: 'magic' })]))), headers: key })).status).toBe(200);
    const beacon = await fetch(`${url}/_tracker/events?key=k`, { method: 'POST', body: new Blob([JSON.stringify(batch([ev('2026-03-01T10:00:03Z', { n: 'beacon' })]))], { type: 'text/plain' }) });
    expect(beacon.status).toBe(200);
    const { res, body } = await readDay(url, key);
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(res.headers.get('vary')).toMatch(/Accept-Encoding/);
    expect(body.events.map((e: any) => e.n)).toEqual(['beacon', 'magic', 'gzip', 'plain']);
    expect(body.total).toBe(4);
    expect(new Set(body.events.map((e: any) => e.id)).size).toBe(4);
  });

  it('window bounds are inclusive, with offsets in the query (also an unencoded +hh:mm)', async () => {
    const { url } = await start();
    await post(url, batch([
      ev('2026-03-01T07:59:59.999Z', { n: 'before' }), ev('2026-03-01T08:00:00Z', { n: 'since' }),
      ev('2026-03-01T09:00:00Z', { n: 'until' }), ev('2026-03-01T09:00:00.001Z', { n: 'after' }),
    ]));
    const encoded = await fetch(`${url}/_tracker?since=${encodeURIComponent('2026-03-01T10:00:00+02:00')}&until=${encodeURIComponent('2026-03-01T04:00:00-05:00')}`);
    expect(((await encoded.json()) as any).events.map((e: any) => e.n)).toEqual(['until', 'since']);
    const raw = await fetch(`${url}/_tracker?since=2026-03-01T10:00:00+02:00&until=2026-03-01T04:00:00-05:00`);
    expect(((await raw.json()) as any).events.map((e: any) => e.n)).toEqual(['until', 'since']);
    expect((await fetch(`${url}/_tracker?since=2026-03-01T10:00:00&until=2026-03-01T11:00:00Z`)).status).toBe(400);
  });

  it('each limit → 413, nothing stored, the server keeps serving', async () => {
    const { url, collector } = await start({ limits: { maxBodyBytes: 64 * 1024, maxDecompressedBytes: 256 * 1024, maxEvents: 5 } });
    const tooBig = await post(url, batch([ev(T, { pad: 'x'.repeat(100 * 1024) })]));
    expect(tooBig.status).toBe(413);
    const bomb = gzipSync(Buffer.concat([Buffer.from('{"type":"ingest","events":[{"timestamp":"2026-03-01T10:00:00Z","x":"'), Buffer.alloc(20 * 1024 * 1024, 0x30)]), { level: 9 });
    const bombed = await post(url, undefined, { raw: bomb, headers: { 'content-encoding': 'gzip' } });
    expect(bombed.status).toBe(413);
    expect(((await bombed.json()) as any).message).toMatch(/Decompressed/);
    const many = await post(url, batch(Array.from({ length: 6 }, () => ev(T))));
    expect(many.status).toBe(413);
    expect(collector.size).toBe(0);
    expect((await post(url, batch([ev(T)]))).status).toBe(200);
    expect((await fetch(`${url}/_tracker/ping`)).status).toBe(200);
  });

  it('400 for a malformed envelope, 422 naming the event', async () => {
    const { url } = await start();
    const bad = await post(url, undefined, { raw: '{"type":"ingest","events":' });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as any).error).toBe('BAD_REQUEST');
    const invalid = await post(url, batch([ev(T), ev(T), { id: '', timestamp: 'soon' }]));
    expect(invalid.status).toBe(422);
    expect(await invalid.json()).toMatchObject({ index: 2, message: expect.stringMatching(/index 2/) });
  });

  it('pagination parameters', async () => {
    const { url } = await start();
    await post(url, batch(Array.from({ length: 7 }, (_, i) => ev(`2026-03-01T10:00:0${i}Z`, { n: i }))));
    const p2 = (await readDay(url, {}, '&limit=3&page=2')).body;
    expect(p2).toMatchObject({ total: 7, page: 2, limit: 3 });
    expect(p2.events.map((e: any) => e.n)).toEqual([3, 2, 1]);
    const c1 = (await readDay(url, {}, '&limit=4')).body;
    const c2 = (await readDay(url, {}, `&limit=4&cursor=${encodeURIComponent(c1.nextCursor)}`)).body;
    expect([...c1.events, ...c2.events].map((e: any) => e.n)).toEqual([6, 5, 4, 3, 2, 1, 0]);
    expect(c2.nextCursor).toBeNull();
  });

  it('auth on every route (ping open) and CORS preflight + reflection', async () => {
    const { url } = await start({ apiKey: 'k', cors: { origins: ['https://app.test'] } });
    expect((await post(url, batch([ev(T)]))).status).toBe(401);
    expect((await readDay(url)).res.status).toBe(401);
    expect((await fetch(`${url}/_tracker/ping`)).status).toBe(200);
    const pre = await fetch(`${url}/_tracker/events`, { method: 'OPTIONS', headers: { origin: 'https://app.test', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, content-encoding, x-tracker-key' } });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe('https://app.test');
    expect(pre.headers.get('access-control-allow-credentials')).toBe('true');
    expect(pre.headers.get('access-control-allow-headers')).toBe('Content-Type, Content-Encoding, X-Tracker-Key');
    const denied = await fetch(`${url}/_tracker/events`, { method: 'OPTIONS', headers: { origin: 'https://evil.test', 'access-control-request-method': 'POST' } });
    expect(denied.status).toBe(403);
    const r = await post(url, batch([ev(T)]), { headers: { origin: 'https://app.test', 'x-tracker-key': 'k' } });
    expect(r.headers.get('access-control-allow-origin')).toBe('https://app.test');
    expect(r.headers.get('vary')).toMatch(/Origin/);
  });

  it('GET {base}/events reads like GET {base}: the tracker client configured with a keyed write URL', async () => {
    // The client's dashboard derives its read URL from `…/_tracker/events?key=K` by stripping a
    // trailing `/events`, which no longer matches, so it reads the write URL itself.
    const { url } = await start({ apiKey: 'K', cors: { origins: ['https://app.test'] } });
    const writeUrl = `${url}/_tracker/events?key=K`;
    const beacon = await fetch(writeUrl, { method: 'POST', body: JSON.stringify(batch([ev(T, { n: 1 }), ev('2026-03-01T11:00:00Z', { n: 2 })])), headers: { 'content-type': 'text/plain' } });
    expect(beacon.status).toBe(200);
    const headers = { origin: 'https://app.test', 'x-tracker-key': 'K' };
    const viaEvents = await fetch(`${writeUrl}&${DAY}`, { headers });
    const viaBase = await fetch(`${url}/_tracker?${DAY}`, { headers });
    expect(viaEvents.status).toBe(200);
    const body = (await viaEvents.json()) as any;
    expect(body).toEqual(await viaBase.json());
    expect(body.events.map((e: any) => e.n)).toEqual([2, 1]);
    expect(body.total).toBe(2);
    for (const name of ['content-type', 'content-encoding', 'access-control-allow-origin', 'access-control-allow-credentials', 'vary', 'cache-control']) {
      expect(viaEvents.headers.get(name)).toBe(viaBase.headers.get(name));
    }
    expect(viaEvents.headers.get('access-control-allow-origin')).toBe('https://app.test');
    // same auth (the header; `?key=` alone is for beacons), same query rules, HEAD too
    const noHeader = await fetch(`${writeUrl}&${DAY}`, { headers: { origin: 'https://app.test' } });
    expect(noHeader.status).toBe(401);
    expect(await noHeader.json()).toMatchObject({ status: 401, error: 'UNAUTHORIZED' });
    const badQuery = await fetch(`${writeUrl}&since=yesterday`, { headers });
    expect(badQuery.status).toBe(400);
    const head = await fetch(`${writeUrl}&${DAY}`, { method: 'HEAD', headers });
    expect(head.status).toBe(200);
    // a preflight for the dashboard's GET, and the methods a wrong one is told about
    const pre = await fetch(`${url}/_tracker/events`, { method: 'OPTIONS', headers: { origin: 'https://app.test', 'access-control-request-method': 'GET', 'access-control-request-headers': 'x-tracker-key' } });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-methods')).toMatch(/GET/);
    const put = await fetch(writeUrl, { method: 'PUT', headers, body: '{}' });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, HEAD, POST, OPTIONS');
  });

  it('WebSocket: auth_ok, 1008 on a wrong key, ack/query/push between two clients, push of HTTP batches', async () => {
    const { url } = await start({ apiKey: 'k' });
    const wrong = await openWs(url);
    wrong.ws.send(JSON.stringify({ type: 'auth', key: 'nope' }));
    expect(await wrong.closed).toBe(1008);
    const early = await openWs(url);
    early.ws.send(JSON.stringify({ type: 'ingest', events: [ev(T)] }));
    expect(await early.closed).toBe(1008);

    const a = await openWs(url);
    const b = await openWs(url);
    a.ws.send(JSON.stringify({ type: 'auth', key: 'k' }));
    b.ws.send(JSON.stringify({ type: 'auth', key: 'k' }));
    expect((await a.next(1))[0]).toEqual({ type: 'auth_ok' });
    expect((await b.next(1))[0]).toEqual({ type: 'auth_ok' });
    a.ws.send(JSON.stringify({ type: 'ingest', events: [ev(T, { n: 'ws' })] }));
    expect((await a.next(2))[1]).toEqual({ type: 'ack', saved: 1 });
    const push = (await b.next(2))[1];
    expect(push).toMatchObject({ type: 'push', events: [{ n: 'ws', timestamp: T }] });
    expect(push.events[0].id).toBeTruthy();
    b.ws.send(JSON.stringify({ type: 'events:query', reqId: 'r1', query: { since: '2026-03-01T00:00:00Z', until: '2026-03-02T00:00:00Z' } }));
    const res = (await b.next(3))[2];
    expect(res).toMatchObject({ type: 'events:response', reqId: 'r1', response: { total: 1, events: [{ n: 'ws' }] } });
    await post(url, batch([ev(T, { n: 'http' })]), { headers: { 'x-tracker-key': 'k' } });
    expect((await a.next(3))[2]).toMatchObject({ type: 'push', events: [{ n: 'http' }] });
    expect((await b.next(4))[3]).toMatchObject({ type: 'push', events: [{ n: 'http' }] });
    expect(a.messages).toHaveLength(3);
    a.ws.close();
    b.ws.close();
  });

  it('WebSocket: a message over maxWsMessageBytes → close 1009; malformed JSON → error, connection open', async () => {
    const { url, collector } = await start({ limits: { maxWsMessageBytes: 1000 } });
    const a = await openWs(url);
    a.ws.send('{nope');
    expect((await a.next(1))[0]).toMatchObject({ type: 'error' });
    a.ws.send(JSON.stringify({ type: 'ingest', events: [ev(T, { pad: 'x'.repeat(2000) })] }));
    expect(await a.closed).toBe(1009);
    expect(collector.size).toBe(0);
    const b = await openWs(url);
    b.ws.send(JSON.stringify({ type: 'ingest', events: [ev(T)] }));
    expect((await b.next(1))[0]).toEqual({ type: 'ack', saved: 1 });
    b.ws.close();
  });

  it('restart persistence and torn-line recovery on disk', async () => {
    const dir = await makeTempDir();
    const first = await start({ storage: { fs: diskFs(dir) } });
    await post(first.url, batch([ev(T, { n: 1 }), ev('2026-03-01T11:00:00Z', { n: 2 })]));
    const before = (await readDay(first.url)).body;
    await stop(first.server, first.collector);
    await appendFile(join(dir, 'events', '2026-03-01T11.jsonl'), '{"id":"x","timestamp":"2026-03-01T11:30:00Z","n":3');
    const log = recordingLogger();
    const second = await start({ storage: { fs: diskFs(dir) }, logger: log.sink, logLevel: 'warn' });
    const after = (await readDay(second.url)).body;
    expect(after).toEqual(before);
    expect(log.warn.join()).toMatch(/torn last line/);
    await post(second.url, batch([ev('2026-03-01T11:45:00Z', { n: 4 })]));
    expect((await readDay(second.url)).body.events.map((e: any) => e.n)).toEqual([4, 2, 1]);
  });

  it('serve({ tracker: options }) mounts a collector the host creates and closes', async () => {
    const server = await serve({ tracker: { appId: 'from-options', logLevel: 'silent' }, port: 0, logLevel: 'silent' });
    try {
      const ping = await fetch(`${server.url}/_tracker/ping`);
      expect(await ping.json()).toMatchObject({ ok: true, appId: 'from-options', mode: 'middleware' });
      expect((await post(server.url, batch([ev(T)]))).status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it('retention drops old segments on disk', async () => {
    const dir = await makeTempDir();
    const H = 3_600_000;
    const now = Date.now();
    const { url, collector } = await start({ storage: { fs: diskFs(dir) }, retention: { maxAgeMs: 3 * H } });
    await post(url, batch([ev(new Date(now - 10 * H).toISOString(), { n: 'old' }), ev(new Date(now - 1000).toISOString(), { n: 'new' })]));
    expect(collector.size).toBe(1);
    const all = await fetch(`${url}/_tracker?since=${new Date(now - 24 * H).toISOString()}&until=${new Date(now + H).toISOString()}`);
    expect(((await all.json()) as any).events.map((e: any) => e.n)).toEqual(['new']);
  });
});
