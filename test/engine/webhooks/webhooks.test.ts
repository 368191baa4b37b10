/**
 * Webhooks through the real transport: the node host (`serve` on 127.0.0.1), real fetch clients,
 * a real node:http receiver (test/helpers/webhook-receiver.ts), real files on disk.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { MockApi } from '../../../src/engine/create-mock-api.js';
import type { WebhookAttempt } from '../../../src/engine/webhooks/delivery.js';
import { closeServers, startServer } from '../../helpers/server.js';
import { makeTempDir, removeTempDirs } from '../../helpers/temp-dir.js';
import { startReceiver, type WebhookReceiver } from '../../helpers/webhook-receiver.js';
import type { RunningServer } from '../../../src/node/serve.js';

const receivers: WebhookReceiver[] = [];
async function receiver(statuses?: number[]): Promise<WebhookReceiver> {
  const r = await startReceiver(statuses);
  receivers.push(r);
  return r;
}

afterEach(async () => {
  await closeServers();
  await Promise.all(receivers.splice(0).map((r) => r.close()));
  await removeTempDirs();
});

function mockOf(server: RunningServer): MockApi {
  return server.engines.find((e) => e.kind === 'mock-api') as MockApi;
}

async function ordersFolder(orders: unknown[] = [{ id: 1, item: 'tea', paid: false }]): Promise<string> {
  const dir = await makeTempDir();
  await writeFile(join(dir, 'orders.json'), JSON.stringify(orders, null, 2));
  return dir;
}

const post = (url: string, body: unknown) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('config webhooks on a request pattern', () => {
  it('POST /api/orders answered 2xx sends the answer body to the receiver, with delivery id, event and timestamp headers', async () => {
    const recv = await receiver();
    const dir = await ordersFolder();
    const server = await startServer({ mock: { endpointPrefix: '/api', fsDir: dir, preset: 'json-server', logLevel: 'silent', webhooks: [{ on: 'POST /api/orders', url: `${recv.url}/hooks/orders` }] } });
    const res = await post(`${server.url}/api/orders`, { item: 'coffee' });
    expect(res.status).toBe(201);
    const created = await res.json();
    const [hook] = await recv.next(1);
    expect(hook!.method).toBe('POST');
    expect(hook!.url).toBe('/hooks/orders');
    expect(hook!.headers['content-type']).toBe('application/json');
    expect(hook!.json()).toEqual(created);
    expect(hook!.headers['x-mockyard-event']).toBe('POST /api/orders');
    expect(hook!.headers['x-mockyard-delivery']).toMatch(/^[0-9a-f-]{36}$/);
    expect(Number(hook!.headers['x-mockyard-timestamp'])).toBeGreaterThan(1_700_000_000);
    // A read and a refused write fire nothing (the pattern's method and default 2xx class).
    await fetch(`${server.url}/api/orders`);
    expect((await post(`${server.url}/api/orders`, { id: created.id })).status).toBe(409);
    await mockOf(server).webhooks.settled();
    expect(recv.received).toHaveLength(1);
  });

  it('a status class in the pattern (4xx), a body function, a url function and declared headers', async () => {
    const recv = await receiver();
    const dir = await ordersFolder();
    const server = await startServer({
      mock: {
        endpointPrefix: '/api', fsDir: dir, preset: 'json-server', logLevel: 'silent',
        webhooks: [{ on: 'POST /api/orders 4xx', url: (c) => `${recv.url}/refused?status=${c.response!.status}`, headers: { 'X-Team': 'shop' }, body: (c) => ({ refused: c.requestBody, status: c.response!.status }) }],
      },
    });
    expect((await post(`${server.url}/api/orders`, { id: 1, item: 'again' })).status).toBe(409);
    const [hook] = await recv.next(1);
    expect(hook!.url).toBe('/refused?status=409');
    expect(hook!.headers['x-team']).toBe('shop');
    expect(hook!.json()).toEqual({ refused: { id: 1, item: 'again' }, status: 409 });
  });

  it('req.app.webhook(url, init) from a handler uses the same delivery (journal rows, headers)', async () => {
    const recv = await receiver();
    const server = await startServer({
      mock: {
        endpointPrefix: '/api', fsDir: null, logLevel: 'silent',
        handlers: [{ pattern: '/pay', method: 'POST', handle: (req, res) => { req.app.webhook(`${recv.url}/paid`, { body: { paid: true }, event: 'order.paid' }); res.status(202).json({ accepted: true }); } }],
      },
    });
    expect((await fetch(`${server.url}/api/pay`, { method: 'POST' })).status).toBe(202);
    const [hook] = await recv.next(1);
    expect(hook!.url).toBe('/paid');
    expect(hook!.headers['x-mockyard-event']).toBe('order.paid');
    expect(hook!.json()).toEqual({ paid: true });
  });
});

describe('config webhooks on a store change', () => {
  it('orders.updated fires for a file edited on disk, and orders.created / deleted for REST writes', async () => {
    const recv = await receiver();
    const dir = await ordersFolder([{ id: 1, item: 'tea', paid: false }, { id: 2, item: 'cake', paid: false }]);
    const server = await startServer({
      mock: {
        endpointPrefix: '/api', fsDir: dir, preset: 'json-server', logLevel: 'silent',
        webhooks: [
          { on: 'orders.updated', url: `${recv.url}/updated` },
          { on: 'orders.created', url: `${recv.url}/created` },
          { on: 'orders.deleted', url: `${recv.url}/deleted`, body: (c) => ({ gone: c.change!.id }) },
        ],
      },
    });
    await mockOf(server).ready();
    const orders = JSON.parse(await readFile(join(dir, 'orders.json'), 'utf8'));
    orders[1].paid = true;
    await writeFile(join(dir, 'orders.json'), JSON.stringify(orders, null, 2)); // an editor, behind the server's back
    const [updated] = await recv.next(1);
    expect(updated!.url).toBe('/updated');
    expect(updated!.json()).toEqual({ id: 2, item: 'cake', paid: true });
    expect(updated!.headers['x-mockyard-event']).toBe('orders.updated');
    expect((await post(`${server.url}/api/orders`, { item: 'scone' })).status).toBe(201);
    expect((await fetch(`${server.url}/api/orders/1`, { method: 'DELETE' })).status).toBe(200);
    const all = await recv.next(3);
    expect(all.map((h) => h.url).sort()).toEqual(['/created', '/deleted', '/updated']);
    expect(all.find((h) => h.url === '/created')!.json()).toMatchObject({ item: 'scone' });
    expect(all.find((h) => h.url === '/deleted')!.json()).toEqual({ gone: '1' });
  });
});

describe('store changes from GraphQL', () => {
  it('a GraphQL mutation fires orders.created and orders.updated', async () => {
    const recv = await receiver();
    const dir = await ordersFolder();
    const server = await startServer({ mock: { endpointPrefix: '/api', fsDir: dir, preset: 'json-server', logLevel: 'silent', webhooks: [{ on: 'orders.*', url: `${recv.url}/gql`, body: (c) => ({ type: c.change!.type, item: c.change!.item }) }] } });
    await mockOf(server).ready();
    const gql = (query: string) => post(`${server.url}/api/graphql`, { query });
    expect((await gql('mutation { createOrder(item: "bun", paid: false) { id } }')).status).toBe(200);
    expect((await gql('mutation { updateOrder(id: 1, paid: true) { id } }')).status).toBe(200);
    const hooks = await recv.next(2);
    expect(hooks.map((h) => (h.json() as { type: string }).type)).toEqual(['created', 'updated']);
    expect((hooks[0]!.json() as { item: unknown }).item).toMatchObject({ item: 'bun', paid: false });
    expect((hooks[1]!.json() as { item: unknown }).item).toEqual({ id: 1, item: 'tea', paid: true });
  });
});

describe('signatures, verified as each provider documents', () => {
  it('GitHub: X-Hub-Signature-256 = "sha256=" + hex HMAC-SHA256(secret, raw body), compared in constant time', async () => {
    const recv = await receiver();
    const server = await startServer({ mock: { endpointPrefix: '/api', fsDir: null, logLevel: 'silent', handlers: [{ pattern: '/x', method: 'POST', handle: (_q, s) => s.status(201).json({ id: 7, name: 'ünïcode ✓' }) }], webhooks: [{ on: 'POST /api/x', url: `${recv.url}/gh`, secret: "It's a Secret to Everybody" }] } });
    await post(`${server.url}/api/x`, {});
    const [hook] = await recv.next(1);
    const expected = Buffer.from(`sha256=${createHmac('sha256', "It's a Secret to Everybody").update(hook!.body).digest('hex')}`);
    const got = Buffer.from(String(hook!.headers['x-hub-signature-256']));
    expect(got.length).toBe(expected.length);
    expect(timingSafeEqual(got, expected)).toBe(true);
  });

  it('Stripe: Stripe-Signature t=<unix s>,v1=hex HMAC-SHA256(secret, "<t>.<raw body>"), within the tolerance', async () => {
    const recv = await receiver();
    const secret = 'whsec_test_secret';
    const server = await startServer({ mock: { endpointPrefix: '/api', fsDir: null, logLevel: 'silent', handlers: [{ pattern: '/checkout', method: 'POST', handle: (_q, s) => s.status(200).json({ type: 'checkout.session.completed' }) }], webhooks: [{ on: 'POST /api/checkout', url: `${recv.url}/stripe`, secret, signature: 'stripe' }] } });
    await post(`${server.url}/api/checkout`, {});
    const [hook] = await recv.next(1);
    const header = String(hook!.headers['stripe-signature']);
    const parts = Object.fromEntries(header.split(',').map((kv) => kv.split('=') as [string, string]));
    const t = Number(parts.t);
    expect(Math.abs(Date.now() / 1000 - t)).toBeLessThan(300); // Stripe's default tolerance
    const v1 = createHmac('sha256', secret).update(`${parts.t}.${hook!.body.toString('utf8')}`).digest('hex');
    expect(parts.v1).toBe(v1);
    expect(hook!.headers['x-hub-signature-256']).toBeUndefined();
  });
});

describe('delivery: retries, order, a receiver that is down', () => {
  it('retries after 500 and 503, then succeeds; every attempt carries the same delivery id and is observed', async () => {
    const recv = await receiver([500, 503, 200]);
    const server = await startServer({ mock: { endpointPrefix: '/api', fsDir: null, logLevel: 'silent', handlers: [{ pattern: '/x', method: 'POST', handle: (_q, s) => s.status(201).json({ n: 1 }) }], webhooks: [{ on: 'POST /api/x', url: `${recv.url}/r`, retry: { attempts: 4, delays: [20, 40] } }] } });
    const attempts: WebhookAttempt[] = [];
    mockOf(server).webhooks.observe((a) => attempts.push(a));
    await post(`${server.url}/api/x`, {});
    const hooks = await recv.next(3);
    await mockOf(server).webhooks.settled();
    expect(new Set(hooks.map((h) => h.headers['x-mockyard-delivery'])).size).toBe(1);
    expect(attempts.map((a) => [a.attempt, a.status, a.outcome])).toEqual([[1, 500, 'retrying'], [2, 503, 'retrying'], [3, 200, 'delivered']]);
    expect(recv.received).toHaveLength(3);
  });

  it('the default schedule retries a 5xx after 0.5 s; a 4xx is final', async () => {
    const recv = await receiver([502, 200]);
    const gone = await receiver([410]);
    const server = await startServer({ mock: { endpointPrefix: '/api', fsDir: null, logLevel: 'silent', handlers: [{ pattern: '/x', method: 'POST', handle: (_q, s) => s.status(201).json({}) }], webhooks: [{ on: 'POST /api/x', url: `${recv.url}/a` }, { on: 'POST /api/x', url: `${gone.url}/b` }] } });
    await post(`${server.url}/api/x`, {});
    await recv.next(2);
    await mockOf(server).webhooks.settled();
    expect(gone.received).toHaveLength(1);
  });

  it('in order per receiver: deliveries to one target arrive in the order of their causes', async () => {
    const recv = await receiver();
    const server = await startServer({ mock: { endpointPrefix: '/api', fsDir: null, logLevel: 'silent', handlers: [{ pattern: '/n/:n', method: 'POST', handle: (q, s) => s.status(201).json({ n: Number(q.params.n) }) }], webhooks: [{ on: 'POST /api/n/:n', url: `${recv.url}/seq` }] } });
    for (let i = 0; i < 20; i++) expect((await post(`${server.url}/api/n/${i}`, {})).status).toBe(201);
    const hooks = await recv.next(20);
    expect(hooks.map((h) => (h.json() as { n: number }).n)).toEqual([...Array(20).keys()]);
  });

  it('receiver down while 100 writes arrive: every write is answered while the deliveries still wait, nothing is thrown, close() cancels them', async () => {
    const down = await receiver();
    const deadUrl = down.url;
    await down.close();
    receivers.splice(receivers.indexOf(down), 1);
    const lines: string[] = [];
    const dir = await ordersFolder([]);
    const unhandled: unknown[] = [];
    const onUnhandled = (e: unknown) => unhandled.push(e);
    process.on('unhandledRejection', onUnhandled);
    try {
      const server = await startServer({ mock: { endpointPrefix: '/api', fsDir: dir, preset: 'json-server', logger: { debug: () => {}, info: () => {}, warn: (m: string) => lines.push(m), error: (m: string) => lines.push(m) }, webhooks: [{ on: 'orders.created', url: `${deadUrl}/down` }] } });
      const api = mockOf(server);
      await api.ready();
      const answers = await Promise.all(Array.from({ length: 100 }, (_, i) => post(`${server.url}/api/orders`, { n: i })));
      expect(answers.map((r) => r.status)).toEqual(Array(100).fill(201));
      // The deliveries still wait (the first one is retrying on its 0.5, 1, 2, 4 s schedule): the answers never waited for them.
      expect(api.webhooks.pending).toBeGreaterThan(0);
      expect(api.webhooks.pending).toBeLessThanOrEqual(100);
      const attempts: WebhookAttempt[] = [];
      api.webhooks.observe((a) => attempts.push(a));
      await server.close();
      expect(attempts.filter((a) => a.outcome === 'cancelled').length).toBeGreaterThan(0);
      expect(api.webhooks.pending).toBe(0);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
    expect(unhandled).toEqual([]);
    expect(lines.every((l) => l.startsWith('[mockyard] webhooks:'))).toBe(true);
  });
});

describe('see them: the journal (admin API), sessions (the Playwright fixture\'s source), the document webhooks admin routes', () => {
  it('every attempt is an outgoing row linked to the entry of the request that caused it, in its session', async () => {
    const recv = await receiver([503, 200]);
    const dir = await ordersFolder();
    const server = await startServer({ mock: { endpointPrefix: '/api', fsDir: dir, preset: 'json-server', logLevel: 'silent', webhooks: [{ on: 'POST /api/orders', url: `${recv.url}/j`, retry: { attempts: 2, delays: [10] } }] } });
    const res = await fetch(`${server.url}/api/orders`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-mockyard-session': 'pw-one' }, body: JSON.stringify({ item: 'jam' }) });
    expect(res.status).toBe(201);
    await recv.next(2);
    await mockOf(server).webhooks.settled();
    const { entries } = (await (await fetch(`${server.url}/_mockyard/api/requests`)).json()) as { entries: Array<Record<string, any>> };
    const cause = entries.find((e) => e.method === 'POST' && e.url === '/api/orders')!;
    const out = entries.filter((e) => e.outgoing).reverse();
    expect(out.map((e) => [e.outgoing.attempt, e.status, e.outgoing.outcome])).toEqual([[1, 503, 'retrying'], [2, 200, 'delivered']]);
    for (const e of out) {
      expect(e.url).toBe(`${recv.url}/j`);
      expect(e.outgoing.causeId).toBe(cause.id);
      expect(e.outgoing.cause).toBe('POST /api/orders');
      expect(e.session).toBe('pw-one');
      expect(JSON.parse(e.request.body.text)).toMatchObject({ item: 'jam' });
    }
    const onlyOut = (await (await fetch(`${server.url}/_mockyard/api/requests?outgoing=true`)).json()) as { entries: unknown[] };
    expect(onlyOut.entries).toHaveLength(2);
    const session = (await (await fetch(`${server.url}/_mockyard/api/sessions/pw-one/requests?outgoing=true`)).json()) as { entries: Array<Record<string, any>> };
    expect(session.entries.map((e) => e.outgoing.outcome)).toEqual(['delivered', 'retrying']);
  });

  it('the document webhooks on demand: GET webhooks, PUT webhooks/target, POST webhooks/send (edited payload)', async () => {
    const recv = await receiver();
    const doc = JSON.parse(await readFile(new URL('../../fixtures/openapi/webhooks-3.1.json', import.meta.url), 'utf8'));
    const server = await startServer({ mock: { endpointPrefix: '/api', fsDir: null, logLevel: 'silent', openapi: doc, webhooks: [{ on: 'POST /api/x', url: 'http://127.0.0.1:9/never' }] } });
    const admin = `${server.url}/_mockyard/api/webhooks`;
    const info = (await (await fetch(admin)).json()) as { target: null; configured: unknown[]; document: Array<{ name: string; method: string }> };
    expect(info.target).toBeNull();
    expect(info.configured).toEqual([{ on: 'POST /api/x', url: 'http://127.0.0.1:9/never' }]);
    expect(info.document.map((d) => `${d.method} ${d.name}`)).toEqual(['POST newPet', 'DELETE newPet']);
    expect((await fetch(`${admin}/send`, { method: 'POST', body: JSON.stringify({ name: 'newPet' }) })).status).toBe(400); // no url, no target
    expect((await fetch(`${admin}/target`, { method: 'PUT', body: JSON.stringify({ url: 'ftp://x' }) })).status).toBe(400);
    expect((await fetch(`${admin}/target`, { method: 'PUT', body: JSON.stringify({ url: `${recv.url}/t` }) })).status).toBe(200);
    const sent = await fetch(`${admin}/send`, { method: 'POST', body: JSON.stringify({ name: 'newPet', method: 'POST', body: { id: 1, name: 'Edited' } }) });
    expect(sent.status).toBe(202);
    expect((await sent.json()).deliveryId).toMatch(/^[0-9a-f-]{36}$/);
    const [hook] = await recv.next(1);
    expect(hook!.url).toBe('/t');
    expect(hook!.json()).toEqual({ id: 1, name: 'Edited' });
    expect((await fetch(`${admin}/send`, { method: 'POST', body: JSON.stringify({ name: 'nope' }) })).status).toBe(404);
  });
});

describe('hosts', () => {
  it('on the web-standard runtime (no transport: the page, mockyard/fetch) webhooks go out with fetch', async () => {
    const { createMockApi } = await import('../../../src/engine/create-mock-api.js');
    const { memoryFs } = await import('../../../src/vfs/memory.js');
    const recv = await receiver();
    const api = createMockApi({ endpointPrefix: '/api', fs: memoryFs({ 'orders.json': [] }), collections: true, logLevel: 'silent', webhooks: [{ on: 'orders.created', url: `${recv.url}/std`, secret: 'k' }] });
    await api.ready();
    const res = await api.handle(new Request('http://x/api/orders', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}' }));
    expect(res!.status).toBe(201);
    const [hook] = await recv.next(1);
    expect(hook!.json()).toEqual({ a: 1, id: 1 });
    expect(hook!.headers['x-hub-signature-256']).toBe(`sha256=${createHmac('sha256', 'k').update(hook!.body).digest('hex')}`);
    await api.close();
  });
});
