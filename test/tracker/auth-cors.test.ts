import { describe, expect, it } from 'vitest';
import { constantTimeEqual } from '../../src/tracker/auth.js';
import type { Collector } from '../../src/tracker/types.js';
import { BASE, batch, ev, ingest, read, reply, collectorPerTest } from './collector-client.js';

let c: Collector;
const make = collectorPerTest((created) => (c = created));
const T = '2026-03-01T10:00:00Z';
const DAY = { since: '2026-03-01T00:00:00Z', until: '2026-03-01T23:59:59Z' };

describe('auth', () => {
  it('ingest needs the key: header or ?key=; wrong/missing → 401 with the error body', async () => {
    make({ apiKey: 'k-123' });
    const missing = await ingest(c, batch([ev(T)]));
    expect(missing.status).toBe(401);
    expect(missing.json).toMatchObject({ status: 401, error: 'UNAUTHORIZED' });
    expect((await ingest(c, batch([ev(T)]), { headers: { 'x-tracker-key': 'k-12' } })).status).toBe(401);
    expect((await ingest(c, batch([ev(T)]), { headers: { 'x-tracker-key': 'k-1234' } })).status).toBe(401);
    expect((await ingest(c, batch([ev(T)]), { query: '?key=nope' })).status).toBe(401);
    expect(c.size).toBe(0);
    expect((await ingest(c, batch([ev(T)]), { headers: { 'x-tracker-key': 'k-123' } })).status).toBe(200);
    expect((await ingest(c, batch([ev(T)]), { query: '?key=k-123' })).status).toBe(200);
    expect(c.size).toBe(2);
  });

  it('read needs the header (not ?key=); ping stays open', async () => {
    make({ apiKey: 'k-123' });
    expect((await read(c, DAY)).status).toBe(401);
    expect((await read(c, { ...DAY, key: 'k-123' })).status).toBe(401);
    expect((await read(c, DAY, { 'x-tracker-key': 'k-123' })).status).toBe(200);
    expect((await c.handle(new Request(`${BASE}/_tracker/ping`)))!.status).toBe(200);
  });

  it('the key is checked before the body is read (no decompression for strangers)', async () => {
    make({ apiKey: 'k', limits: { maxBodyBytes: 10 } });
    expect((await ingest(c, batch([ev(T)]))).status).toBe(401);
  });

  it('constantTimeEqual compares whole encodings', () => {
    const k = new TextEncoder().encode('abc');
    expect(constantTimeEqual(k, 'abc')).toBe(true);
    expect(constantTimeEqual(k, 'abd')).toBe(false);
    expect(constantTimeEqual(k, 'ab')).toBe(false);
    expect(constantTimeEqual(k, 'abcabc')).toBe(false);
    expect(constantTimeEqual(k, '')).toBe(false);
    expect(constantTimeEqual(new TextEncoder().encode('é'), 'é')).toBe(true);
  });
});

describe('CORS', () => {
  const preflight = (origin: string, extra: Record<string, string> = {}) =>
    c.handle(new Request(`${BASE}/_tracker/events`, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,content-encoding,x-tracker-key', ...extra } }));

  it('answers preflights with the reflected origin, credentials, methods, headers and max-age', async () => {
    make();
    const r = (await preflight('https://app.example.com'))!;
    expect(r.status).toBe(204);
    expect(r.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
    expect(r.headers.get('access-control-allow-credentials')).toBe('true');
    expect(r.headers.get('access-control-allow-methods')).toMatch(/POST/);
    expect(r.headers.get('access-control-allow-headers')).toBe('Content-Type, Content-Encoding, X-Tracker-Key');
    expect(r.headers.get('access-control-max-age')).toBe('600');
    expect(r.headers.get('vary')).toBe('Origin');
  });

  it('preflights need no key', async () => {
    make({ apiKey: 'k' });
    expect((await preflight('https://a.test'))!.status).toBe(204);
  });

  it('answers the private-network preflight flag', async () => {
    make();
    const r = (await preflight('https://public.example', { 'access-control-request-private-network': 'true' }))!;
    expect(r.headers.get('access-control-allow-private-network')).toBe('true');
  });

  it('reflects the origin on actual responses (never *), with Vary: Origin, errors included', async () => {
    make({ apiKey: 'k' });
    const ok = await ingest(c, batch([ev(T)]), { headers: { origin: 'http://localhost:5173', 'x-tracker-key': 'k' } });
    expect(ok.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(ok.headers.get('access-control-allow-credentials')).toBe('true');
    expect(ok.headers.get('vary')).toBe('Origin');
    const denied = await ingest(c, batch([ev(T)]), { headers: { origin: 'http://localhost:5173' } });
    expect(denied.status).toBe(401);
    expect(denied.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    const r = await read(c, DAY, { origin: 'http://localhost:5173', 'x-tracker-key': 'k' });
    expect(r.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    const ping = await c.handle(new Request(`${BASE}/_tracker/ping`, { headers: { origin: 'https://x.test' } }));
    expect(ping!.headers.get('access-control-allow-origin')).toBe('https://x.test');
  });

  it('an origin list: allowed origins reflected; others get no CORS headers and a 403 preflight', async () => {
    make({ cors: { origins: ['https://app.example.com', /^http:\/\/localhost:\d+$/] } });
    expect((await preflight('https://app.example.com'))!.status).toBe(204);
    expect((await preflight('http://localhost:3000'))!.status).toBe(204);
    const bad = (await preflight('https://evil.example'))!;
    expect(bad.status).toBe(403);
    expect(bad.headers.get('access-control-allow-origin')).toBeNull();
    const r = await ingest(c, batch([ev(T)]), { headers: { origin: 'https://evil.example' } });
    expect(r.headers.get('access-control-allow-origin')).toBeNull();
    expect(r.headers.get('access-control-allow-credentials')).toBeNull();
    const good = await ingest(c, batch([ev(T)]), { headers: { origin: 'https://app.example.com' } });
    expect(good.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
  });

  it('cors: false sends no CORS headers', async () => {
    make({ cors: false });
    const r = await ingest(c, batch([ev(T)]), { headers: { origin: 'https://a.test' } });
    expect(r.headers.get('access-control-allow-origin')).toBeNull();
    expect(r.headers.get('vary')).toBeNull();
  });

  it('OPTIONS without preflight headers → 204 with Allow', async () => {
    make();
    const r = (await c.handle(new Request(`${BASE}/_tracker`, { method: 'OPTIONS' })))!;
    expect(r.status).toBe(204);
    expect(r.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });

  it('WebSocket upgrades from a disallowed origin are refused with 403', async () => {
    make({ cors: { origins: ['https://app.example.com'] } });
    const refused = await c.upgrade!(new Request(`${BASE}/_tracker/ws`, { headers: { origin: 'https://evil.example' } }));
    expect((refused as Response).status).toBe(403);
    const ok = await c.upgrade!(new Request(`${BASE}/_tracker/ws`, { headers: { origin: 'https://app.example.com' } }));
    expect(typeof ok).toBe('function');
    expect(await c.upgrade!(new Request(`${BASE}/api/ws`))).toBeUndefined();
  });

  it('reply helper sanity: error bodies are JSON', async () => {
    make();
    const r = await reply(await c.handle(new Request(`${BASE}/_tracker/x`)));
    expect(r.json.message).toBe('Not Found');
  });
});
