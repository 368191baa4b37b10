/**
 * Faults on demand through a real node:http server, as a real fetch client sees them: seeded
 * error rates (replayable), delay distributions, every connection fault (reset, truncated body,
 * malformed chunk, slow body, no answer), per route, handler, scenario and session override;
 * the journal says which fault fired. interceptFetch turns connection faults into the
 * platform's network error.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createMockApi } from '../../../src/engine/create-mock-api.js';
import type { MockApiOptions } from '../../../src/engine/mock-api-options.js';
import { interceptFetch } from '../../../src/test/intercept-fetch.js';
import { memoryFs } from '../../../src/vfs/memory.js';
import { closeServers, startServer } from '../../helpers/server.js';

afterEach(async () => {
  await closeServers();
});

const A = '/_mockyard/api';
const BIG = Array.from({ length: 200 }, (_, i) => ({ id: i + 1, name: `user ${i + 1}` }));

function options(extra: Partial<MockApiOptions> = {}): MockApiOptions {
  return { endpointPrefix: '/api', logLevel: 'silent', fs: memoryFs({ 'users.json': BIG, 'ok.json': { ok: true } }), collections: true, ...extra };
}

/** What a fetch client saw: a status with the whole body, or the error (name, message, cause code). */
async function outcome(url: string, init?: RequestInit): Promise<string> {
  try {
    const r = await fetch(url, init);
    try {
      const text = await r.text();
      return `${r.status} ${text.length}`;
    } catch (err) {
      return `${r.status} body ${(err as Error).name}: ${(err as Error).message}`;
    }
  } catch (err) {
    const e = err as Error & { cause?: { code?: string; message?: string } };
    return `${e.name}: ${e.message}${e.cause?.code ? ` (${e.cause.code})` : ''}`;
  }
}

describe('faults through a real server', () => {
  it('a seeded error rate fails the same requests in the same order on every run; the journal says which fault fired', async () => {
    const rule = { method: 'GET', path: '/users', errorRate: 0.4, status: 503, seed: 42 };
    const run = async () => {
      const s = await startServer({ mock: options({ faults: [rule] }) });
      const statuses: number[] = [];
      for (let i = 0; i < 20; i++) statuses.push((await fetch(`${s.url}/api/users`)).status);
      const entries = (await (await fetch(`${s.url}${A}/requests`)).json()).entries as Array<{ status: number; fault: any }>;
      await s.close();
      return { statuses, entries };
    };
    const one = await run();
    const two = await run();
    expect(one.statuses).toEqual(two.statuses);
    expect(one.statuses.filter((x) => x === 503).length).toBeGreaterThan(2);
    expect(one.statuses.filter((x) => x === 200).length).toBeGreaterThan(2);
    const failed = one.entries.find((e) => e.status === 503)!;
    expect(failed.fault).toEqual({ rule: 'GET /users', type: 'error', status: 503, seed: 42 });
    expect(one.entries.find((e) => e.status === 200)!.fault).toBeNull();
    // The error body is the one JSON error body.
    const s = await startServer({ mock: options({ faults: [{ path: '/ok.json', status: 500 }] }) });
    const r = await fetch(`${s.url}/api/ok.json`);
    expect(r.status).toBe(500);
    expect((await r.json()).message).toBe('Injected fault (* /ok.json)');
  });

  it('delays: fixed, range and { p50, p99 } (drawn, recorded); a bad distribution is refused at start-up', async () => {
    const s = await startServer({ mock: options({ faults: [{ path: '/users', delay: { p50: 5, p99: 20 }, seed: 1 }, { path: '/ok.json', delay: [1, 3] }] }) });
    expect((await fetch(`${s.url}/api/users`)).status).toBe(200);
    expect((await fetch(`${s.url}/api/ok.json`)).status).toBe(200);
    const entries = (await (await fetch(`${s.url}${A}/requests`)).json()).entries as Array<{ url: string; fault: any }>;
    const users = entries.find((e) => e.url === '/api/users')!.fault;
    expect(users.type).toBe('delay');
    expect(users.delay).toBeGreaterThan(0);
    const ok = entries.find((e) => e.url === '/api/ok.json')!.fault;
    expect(ok.delay).toBeGreaterThanOrEqual(1);
    expect(ok.delay).toBeLessThanOrEqual(3);
    expect(() => createMockApi(options({ faults: [{ path: '/x', delay: { p50: 10, p99: 5 } }] }))).toThrow(/faults\[0\]\.delay\.p99/);
    expect(() => createMockApi(options({ faults: [{ path: '/x', fault: 'explode' as never }] }))).toThrow(/faults\[0\]\.fault\.type/);
  });

  it('every connection fault as fetch sees it', async () => {
    const s = await startServer({
      mock: options({
        faults: [
          { path: '/reset', fault: 'connection-reset' },
          { path: '/users', method: 'GET', fault: 'truncated-body' },
          { path: '/chunk', fault: 'malformed-chunk' },
          { path: '/ok.json', fault: { type: 'slow-body', bytesPerSecond: 40 } },
          { path: '/hang', fault: 'no-answer' },
        ],
      }),
    });
    expect(await outcome(`${s.url}/api/reset`)).toMatch(/^TypeError: fetch failed \((ECONNRESET|UND_ERR_SOCKET)\)$/);
    // Truncated: the head arrives (status, full Content-Length), the body read fails.
    const r = await fetch(`${s.url}/api/users`);
    expect(r.status).toBe(200);
    const whole = (await (await fetch(`${s.url}/api/users.json`)).arrayBuffer()).byteLength; // the same file, no rule
    expect(Number(r.headers.get('content-length'))).toBe(whole);
    await expect(r.text()).rejects.toThrow(/terminated/);
    expect(await outcome(`${s.url}/api/chunk`)).toMatch(/TypeError/);
    // Slow body: complete and right, in several pieces.
    const slow = await fetch(`${s.url}/api/ok.json`);
    const reader = slow.body!.getReader();
    let pieces = 0;
    let text = '';
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      pieces++;
      text += new TextDecoder().decode(value);
    }
    expect(JSON.parse(text)).toEqual({ ok: true });
    expect(pieces).toBeGreaterThan(1);
    // No answer: the client gives up (its own timeout).
    expect(await outcome(`${s.url}/api/hang`, { signal: AbortSignal.timeout(300) })).toMatch(/^TimeoutError/);
    const entries = (await (await fetch(`${s.url}${A}/requests`)).json()).entries as Array<{ url: string; fault: any }>;
    expect(entries.map((e) => `${e.url} ${e.fault?.type}`).reverse()).toEqual(['/api/reset connection-reset', '/api/users truncated-body', '/api/users.json undefined', '/api/chunk malformed-chunk', '/api/ok.json slow-body', '/api/hang no-answer']);
  });

  it('faults per handler, per scenario and per session override (only that session)', async () => {
    const s = await startServer({
      mock: options({
        handlers: [{ pattern: '/me', handle: () => ({ me: 1 }), fault: { status: 502 } }],
        scenarios: { flaky: { faults: [{ path: '/ok.json', status: 504 }] } },
      }),
    });
    expect((await fetch(`${s.url}/api/me`)).status).toBe(502);
    expect((await fetch(`${s.url}/api/ok.json`, { headers: { 'x-mockyard-scenario': 'flaky' } })).status).toBe(504);
    expect((await fetch(`${s.url}/api/ok.json`)).status).toBe(200);
    const add = await fetch(`${s.url}${A}/sessions/t1/overrides`, { method: 'POST', body: JSON.stringify([{ path: '/users/:id', fault: 'connection-reset' }, { method: 'GET', path: '/ok.json', errorRate: 1, status: 429 }]) });
    expect(add.status).toBe(200);
    expect(await outcome(`${s.url}/api/users/1`, { headers: { 'x-mockyard-session': 't1' } })).toMatch(/^TypeError: fetch failed/);
    expect((await fetch(`${s.url}/api/ok.json`, { headers: { 'x-mockyard-session': 't1' } })).status).toBe(429);
    expect((await fetch(`${s.url}/api/users/1`, { headers: { 'x-mockyard-session': 't2' } })).status).toBe(200);
    expect((await fetch(`${s.url}/api/users/1`)).status).toBe(200);
    const t1 = (await (await fetch(`${s.url}${A}/requests?session=t1`)).json()).entries as Array<{ fault: any }>;
    expect(t1.map((e) => e.fault?.type)).toEqual(['error', 'connection-reset']);
  });
});

describe('faults in interceptFetch', () => {
  it('a connection fault is the platform network error; no-answer waits for the abort; slow-body completes', async () => {
    const api = createMockApi(options({ faults: [{ path: '/reset', fault: 'connection-reset' }, { path: '/cut', fault: 'truncated-body' }, { path: '/hang', fault: 'no-answer' }, { path: '/ok.json', fault: { type: 'slow-body', bytesPerSecond: 100 } }] }));
    const mocked = interceptFetch(api, { baseUrl: 'http://app.test' });
    try {
      await expect(fetch('http://app.test/api/reset')).rejects.toThrow(new TypeError('Failed to fetch'));
      await expect(fetch('http://app.test/api/cut')).rejects.toThrow(new TypeError('Failed to fetch'));
      await expect(fetch('http://app.test/api/hang', { signal: AbortSignal.timeout(100) })).rejects.toMatchObject({ name: 'TimeoutError' });
      expect(await (await fetch('http://app.test/api/ok.json')).json()).toEqual({ ok: true });
    } finally {
      mocked.restore();
      await api.close();
    }
  });
});
