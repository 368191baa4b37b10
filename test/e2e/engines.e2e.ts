/**
 * Both engines built by `startWorker` from option objects, running unchanged in the page
 * (test/e2e/site/engines.ts): the programmable layer's browser paths and the collector's
 * contract (auth, gzip by magic bytes, beacons with ?key=, WebSocket protocol, IndexedDB storage).
 */
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { launchChromium, type Browser } from './helpers/chromium.js';
import { networkCounts, resetNetworkCounts } from './helpers/network.js';

const site = inject('siteUrl');
let browser: Browser;
let page: Page;

async function started(p: Page) {
  expect(await p.evaluate(() => (window as any).mockyard.started)).toBe('ok');
}

type Init = { method?: string; headers?: Record<string, string>; body?: string | number[] };
/** fetch in the page; `body` as number[] is sent as bytes. */
function call(path: string, init: Init = {}) {
  return page.evaluate(async ([p, i]) => {
    const body = Array.isArray(i.body) ? new Uint8Array(i.body) : i.body;
    const res = await fetch(p, { method: i.method, headers: i.headers, body });
    const text = await res.text();
    let json: any = null;
    try {
      json = JSON.parse(text);
    } catch {
      json = text;
    }
    return { status: res.status, headers: Object.fromEntries(res.headers), body: json };
  }, [path, init] as const);
}

const ingestBody = (label: string, at: string) => JSON.stringify({ type: 'ingest', events: [{ id: '', timestamp: at, type: 'e2e', label }] });
const window24h = () => `since=${new Date(Date.now() - 86400_000).toISOString()}&until=${new Date(Date.now() + 60_000).toISOString()}`;

beforeAll(async () => {
  await resetNetworkCounts(site);
  browser = await launchChromium();
  page = await browser.context.newPage();
  await page.goto(`${site}/engines.html`);
  await started(page);
});
afterAll(async () => {
  await browser?.close();
});

describe('mock API engine in the page', () => {
  it('serves files from IndexedDB with their content type', async () => {
    const users = await call('/api/users');
    expect(users.status).toBe(200);
    expect(users.body).toEqual([{ id: 1, name: 'Ada' }, { id: 2, name: 'Grace' }]);
    const doc = await call('/api/docs/readme.txt');
    expect(doc.headers['content-type']).toMatch(/^text\/plain/);
    expect(doc.body).toBe('hello docs');
    expect((await call('/api/nothing-here')).status).toBe(404);
  });

  it('parses multipart uploads for handlers', async () => {
    const res = await page.evaluate(async () => {
      const form = new FormData();
      form.append('note', 'two files');
      form.append('doc', new Blob([new Uint8Array([1, 2, 3, 250])], { type: 'application/pdf' }), 'a.pdf');
      return (await fetch('/api/upload', { method: 'POST', body: form })).json();
    });
    expect(res.body).toEqual({ note: 'two files' });
    expect(res.files).toEqual([{ fieldName: 'doc', filename: 'a.pdf', contentType: 'application/pdf', size: 4, sum: 256 }]);
  });

  it('answers invalid JSON with 400, never a string body', async () => {
    const bad = await call('/api/echo', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":' });
    expect(bad.status).toBe(400);
    expect(bad.body.status).toBe(400);
    const good = await call('/api/echo', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}' });
    expect(good.body).toEqual({ body: { a: 1 } });
  });

  it('decodes gzip request bodies in the page (DecompressionStream), refuses other codings and deep JSON', async () => {
    // File mode (no gatewayTimeout there: the first compressed body loads the inflater's chunk).
    const zipped = await call('/api/zipped', { method: 'POST', headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' }, body: [...gzipSync('{"a":[1,2]}')] });
    expect(zipped.status).toBe(201);
    expect((await call('/api/zipped')).body).toEqual({ a: [1, 2] });
    const br = await call('/api/other', { method: 'POST', headers: { 'content-type': 'application/json', 'content-encoding': 'br' }, body: '{}' });
    expect(br.status).toBe(415);
    expect(br.body.message).toBe('Unsupported Content-Encoding "br" (supported: gzip, deflate)');
    const deep = await call('/api/echo', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '['.repeat(5000) + ']'.repeat(5000) });
    expect(deep.status).toBe(400);
    expect(deep.body.message).toMatch(/limit of 256 levels/);
  });

  it('answers 504 after gatewayTimeout, as on the node host', async () => {
    const res = await call('/api/slow');
    expect(res.status).toBe(504);
    expect(res.body.message).toBe('Gateway Timeout');
  });

  it('applies a handler delay in the page (a delayed answer arrives after a later quick one)', async () => {
    const order = await page.evaluate(async () => {
      const done: string[] = [];
      const get = (p: string) => fetch(p).then((r) => r.json()).then((b: { which: string }) => done.push(b.which));
      const delayed = get('/api/delayed');
      const quick = get('/api/quick');
      await Promise.all([delayed, quick]);
      return done;
    });
    expect(order).toEqual(['quick', 'delayed']);
  });

  it('pushes from a REST handler to page WebSocket clients (req.app.ws.broadcast)', async () => {
    const got = await page.evaluate(async () => {
      const ws = new WebSocket(`${location.origin.replace('http', 'ws')}/api/push`);
      await new Promise((r) => (ws.onopen = r));
      const message = new Promise<string>((r) => (ws.onmessage = (e) => r(String(e.data))));
      const res = await (await fetch('/api/notify', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"note":"deployed"}' })).json();
      const text = await message;
      ws.close();
      return { res, text };
    });
    expect(got.res).toEqual({ reached: 1 });
    expect(JSON.parse(got.text)).toEqual({ note: 'deployed' });
  });
});

describe('devtools admin API in the page (on by default in the browser)', () => {
  it('lists the requests the page made, switches scenarios per request and for the engine', async () => {
    await call('/api/quick?devtools=1');
    const list = await call('/_mockyard/api/requests?path=/api/quick');
    expect(list.status).toBe(200);
    expect(list.body.entries[0]).toMatchObject({ method: 'GET', url: '/api/quick?devtools=1', status: 200, answeredBy: { layer: 'handlers' } });
    expect((await call('/api/quick', { headers: { 'X-Mockyard-Scenario': 'calm' } })).body).toEqual({ which: 'calm' });
    expect((await call('/_mockyard/api/scenario', { method: 'PUT', body: '{"name":"calm"}' })).body).toEqual({ current: 'calm', scenarios: ['calm'], saved: {} });
    expect((await call('/api/quick')).body).toEqual({ which: 'calm' });
    await call('/_mockyard/api/scenario', { method: 'PUT', body: '{"name":null}' });
    expect((await call('/api/quick')).body).toEqual({ which: 'quick' });
    expect((await call('/api/quick?__scenario=nope')).status).toBe(400);
  });

  it('POST reset restores the IndexedDB seed', async () => {
    await call('/api/users', { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '[{"id":9}]' });
    expect((await call('/api/users')).body).toEqual([{ id: 9 }]);
    expect((await call('/_mockyard/api/reset', { method: 'POST' })).status).toBe(200);
    expect((await call('/api/users')).body).toEqual([{ id: 1, name: 'Ada' }, { id: 2, name: 'Grace' }]);
  });
});

describe('collector in the page', () => {
  it('ping is open; ingest and read require the key', async () => {
    const ping = await call('/_tracker/ping');
    expect(ping.status).toBe(200);
    expect(ping.body).toMatchObject({ ok: true, appId: 'e2e', mode: 'middleware' });
    const at = new Date().toISOString();
    expect((await call('/_tracker/events', { method: 'POST', headers: { 'content-type': 'application/json' }, body: ingestBody('nokey', at) })).status).toBe(401);
    expect((await call(`/_tracker?${window24h()}`)).status).toBe(401);
  });

  it('ingests plain JSON, gzip with Content-Encoding, gzip by magic bytes, and a beacon with ?key=', async () => {
    const t = (s: number) => new Date(Date.now() - 60_000 + s * 1000).toISOString();
    const key = { 'x-tracker-key': 'k1' };
    const plain = await call('/_tracker/events', { method: 'POST', headers: { ...key, 'content-type': 'application/json' }, body: ingestBody('plain', t(1)) });
    expect(plain).toMatchObject({ status: 200, body: { ok: true, saved: 1 } });
    const gz = Array.from(gzipSync(ingestBody('gzip', t(2))));
    const gzip = await call('/_tracker/events', { method: 'POST', headers: { ...key, 'content-type': 'application/json', 'content-encoding': 'gzip' }, body: gz });
    expect(gzip).toMatchObject({ status: 200, body: { saved: 1 } });
    const magic = await call('/_tracker/events', { method: 'POST', headers: { ...key, 'content-type': 'application/json' }, body: Array.from(gzipSync(ingestBody('magic', t(3)))) });
    expect(magic).toMatchObject({ status: 200, body: { saved: 1 } });
    const beaconed = await page.evaluate((b) => navigator.sendBeacon('/_tracker/events?key=k1', new Blob([b], { type: 'application/json' })), ingestBody('beacon', t(4)));
    expect(beaconed).toBe(true);

    await expect.poll(async () => (await call(`/_tracker?${window24h()}`, { headers: key })).body.total).toBe(4);
    const read = await call(`/_tracker?${window24h()}`, { headers: key });
    expect(read.headers['content-encoding']).toBeUndefined();
    expect(read.body.events.map((e: { label: string }) => e.label)).toEqual(['beacon', 'magic', 'gzip', 'plain']);
  });

  it('speaks the WebSocket protocol: auth_ok, ack, push to the other client', async () => {
    const got = await page.evaluate(async () => {
      const url = `${location.origin.replace('http', 'ws')}/_tracker/ws`;
      const open = async () => {
        const ws = new WebSocket(url);
        const inbox: any[] = [];
        const waiters: Array<() => void> = [];
        ws.onmessage = (e) => {
          inbox.push(JSON.parse(String(e.data)));
          waiters.splice(0).forEach((w) => w());
        };
        await new Promise((r) => (ws.onopen = r));
        const next = async (type: string) => {
          for (;;) {
            const found = inbox.find((m) => m.type === type);
            if (found) return found;
            await new Promise<void>((r) => waiters.push(r));
          }
        };
        return { ws, next };
      };
      const a = await open();
      const b = await open();
      a.ws.send(JSON.stringify({ type: 'auth', key: 'k1' }));
      b.ws.send(JSON.stringify({ type: 'auth', key: 'k1' }));
      const authA = await a.next('auth_ok');
      await b.next('auth_ok');
      a.ws.send(JSON.stringify({ type: 'ingest', events: [{ id: '', timestamp: new Date().toISOString(), type: 'ws', label: 'over ws' }] }));
      const ack = await a.next('ack');
      const push = await b.next('push');
      const bad = await open();
      const closed = new Promise<number>((r) => (bad.ws.onclose = (e) => r(e.code)));
      bad.ws.send(JSON.stringify({ type: 'auth', key: 'wrong' }));
      const code = await closed;
      a.ws.close();
      b.ws.close();
      return { authA, ack, push, code };
    });
    expect(got.authA).toEqual({ type: 'auth_ok' });
    expect(got.ack).toMatchObject({ type: 'ack', saved: 1 });
    expect(got.push.events.map((e: { label: string }) => e.label)).toEqual(['over ws']);
    expect(got.push.events[0].id).not.toBe('');
    expect(got.code).toBe(1008);
  });

  it('keeps events across a reload (storage on indexedDbFs)', async () => {
    // Its own events: whatever earlier tests stored, the ones stored here (and all before) survive.
    const key = { 'x-tracker-key': 'k1' };
    const at = (s: number) => new Date(Date.now() + 1_000 + s * 1000).toISOString(); // newest of all
    for (const [i, label] of ['reload-1', 'reload-2'].entries()) {
      const stored = await call('/_tracker/events', { method: 'POST', headers: { ...key, 'content-type': 'application/json' }, body: ingestBody(label, at(i)) });
      expect(stored).toMatchObject({ status: 200, body: { saved: 1 } });
    }
    const before = (await call(`/_tracker?${window24h()}`, { headers: key })).body;
    expect(before.events.slice(0, 2).map((e: { label: string }) => e.label)).toEqual(['reload-2', 'reload-1']);
    await page.reload();
    await started(page);
    const after = (await call(`/_tracker?${window24h()}`, { headers: key })).body;
    expect(after.total).toBe(before.total);
    expect(after.events).toEqual(before.events);
  });

  it('sent none of it to the network', async () => {
    const counts = await networkCounts(site);
    expect(Object.keys(counts).filter((p) => p.startsWith('/api') || p.startsWith('/_tracker'))).toEqual([]);
  });
});
