/**
 * OpenAPI callbacks and 3.1 webhooks, through the node host with a real receiver.
 *
 * Beside Prism: test/fixtures/prism/callbacks-5.14.2.json is what @stoplight/prism-cli 5.14.2
 * sent on the same document (@readme/oas-examples 8.2.2 `3.0/json/callbacks.json`, copied to
 * test/fixtures/openapi/callbacks.json): `prism mock -p N callbacks.json` in a scratch folder,
 * `POST /streams?callbackUrl=<receiver>/hooks`, the node:http receiver's requests saved. Prism
 * answered 201 and POSTed `<receiver>/hooks/data` with a JSON body `{ timestamp, userData }`
 * drawn from the schema. mockyard must send the same request: method, path, JSON type, the
 * schema's properties with their types. (Prism's payload is random; ours is seeded.)
 */
import { afterEach, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import type { MockApi } from '../../../src/engine/create-mock-api.js';
import { closeServers, startServer } from '../../helpers/server.js';
import { startReceiver, type WebhookReceiver } from '../../helpers/webhook-receiver.js';
import type { RunningServer } from '../../../src/node/serve.js';

const fixture = (p: string) => new URL(`../../fixtures/${p}`, import.meta.url).pathname;
const prism = JSON.parse(readFileSync(fixture('prism/callbacks-5.14.2.json'), 'utf8')) as {
  answer: { status: number; body: string };
  callbacks: Array<{ method: string; url: string; headers: Record<string, string>; body: string }>;
};

const receivers: WebhookReceiver[] = [];
async function receiver(statuses?: number[]): Promise<WebhookReceiver> {
  const r = await startReceiver(statuses);
  receivers.push(r);
  return r;
}
afterEach(async () => {
  await closeServers();
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});
const mockOf = (server: RunningServer) => server.engines.find((e) => e.kind === 'mock-api') as MockApi;

const typeOf = (v: unknown) => (Array.isArray(v) ? 'array' : v === null ? 'null' : typeof v);

describe('OpenAPI callbacks (callbacks.json, beside Prism 5)', () => {
  it('POST /streams?callbackUrl=R answers 201 as Prism does, then POSTs R/data with the schema\'s payload', async () => {
    const recv = await receiver([202]);
    const server = await startServer({ mock: { endpointPrefix: '/', fsDir: null, logLevel: 'silent', openapi: fixture('openapi/callbacks.json') } });
    const res = await fetch(`${server.url}/streams?callbackUrl=${encodeURIComponent(`${recv.url}/hooks`)}`, { method: 'POST' });
    expect(res.status).toBe(prism.answer.status);
    expect(Object.keys(await res.json())).toEqual(Object.keys(JSON.parse(prism.answer.body)));
    const [hook] = await recv.next(1);
    const theirs = prism.callbacks[0]!;
    expect(prism.callbacks).toHaveLength(1);
    expect(hook!.method).toBe(theirs.method);
    expect(hook!.url).toBe(theirs.url);
    expect(hook!.headers['content-type']).toBe(theirs.headers['content-type']);
    const ours = hook!.json() as Record<string, unknown>;
    const their = JSON.parse(theirs.body) as Record<string, unknown>;
    expect(Object.keys(ours).sort()).toEqual(Object.keys(their).sort());
    for (const k of Object.keys(their)) expect(typeOf(ours[k])).toBe(typeOf(their[k]));
    expect(Number.isNaN(Date.parse(ours.timestamp as string))).toBe(false); // format: date-time
    expect(hook!.headers['x-mockyard-event']).toBe('onData');
    await mockOf(server).webhooks.settled();
    expect(recv.received).toHaveLength(1);
  });

  it('the same seed sends the same payloads run after run', async () => {
    const payloads: unknown[][] = [];
    for (let run = 0; run < 2; run++) {
      const recv = await receiver();
      const server = await startServer({ mock: { endpointPrefix: '/', fsDir: null, logLevel: 'silent', openapi: { document: fixture('openapi/callbacks.json'), seed: 7 } } });
      for (let i = 0; i < 2; i++) await fetch(`${server.url}/streams?callbackUrl=${encodeURIComponent(recv.url)}`, { method: 'POST' });
      payloads.push((await recv.next(2)).map((h) => h.json()));
      await closeServers();
    }
    expect(payloads[0]).toEqual(payloads[1]);
    expect(payloads[0]![0]).not.toEqual(payloads[0]![1]); // each send draws the next value
  });

  it('no callback when the expression has no value (callbackUrl missing → the request is a 400 anyway) or the answer is not 2xx', async () => {
    const recv = await receiver();
    const server = await startServer({ mock: { endpointPrefix: '/', fsDir: null, logLevel: 'silent', openapi: fixture('openapi/callbacks.json') } });
    expect((await fetch(`${server.url}/streams`, { method: 'POST' })).status).toBe(400);
    await mockOf(server).webhooks.settled();
    expect(recv.received).toHaveLength(0);
  });
});

/** A 3.1 document whose callback URL comes from the request body and the answer, with a declared header and an example payload. */
const subscriptions = {
  openapi: '3.1.0',
  info: { title: 'Subscriptions', version: '1' },
  paths: {
    '/subscriptions/{topic}': {
      post: {
        parameters: [{ name: 'topic', in: 'path', required: true, schema: { type: 'string' } }],
        requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', required: ['callbackUrl'], properties: { callbackUrl: { type: 'string' } } } } } },
        responses: { '201': { description: 'made', content: { 'application/json': { schema: { type: 'object', properties: { id: { type: 'string' } } }, example: { id: 'sub-42' } } } } },
        callbacks: {
          event: {
            '{$request.body#/callbackUrl}/topics/{$request.path.topic}/{$response.body#/id}?by={$method}': {
              put: {
                parameters: [{ name: 'X-Event-Kind', in: 'header', schema: { type: 'string' }, example: 'ping' }],
                requestBody: { content: { 'application/json': { schema: { type: 'object' }, example: { hello: 'world' } } } },
                responses: { '200': { description: 'ok' } },
              },
            },
          },
        },
      },
    },
  },
};

describe('runtime expressions: $request.body#/ptr, $request.path, $response.body#/id, $method; declared headers; examples', () => {
  it('sends PUT <callbackUrl>/topics/<topic>/<id>?by=POST with the example and the header', async () => {
    const recv = await receiver();
    const server = await startServer({ mock: { endpointPrefix: '/api', fsDir: null, logLevel: 'silent', openapi: subscriptions } });
    const res = await fetch(`${server.url}/api/subscriptions/news`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ callbackUrl: `${recv.url}/cb` }) });
    expect(res.status).toBe(201);
    const [hook] = await recv.next(1);
    expect(hook!.method).toBe('PUT');
    expect(hook!.url).toBe('/cb/topics/news/sub-42?by=POST');
    expect(hook!.headers['x-event-kind']).toBe('ping');
    expect(hook!.json()).toEqual({ hello: 'world' });
  });
});

const pets31 = JSON.parse(readFileSync(fixture('openapi/webhooks-3.1.json'), 'utf8')) as Record<string, unknown>;

describe('3.1 webhooks (webhooks.json): sent on demand', () => {
  it('lists newPet with a drawn Pet payload and sends it (drawn or edited) to a URL', async () => {
    const recv = await receiver();
    const server = await startServer({ mock: { endpointPrefix: '/api', fsDir: null, logLevel: 'silent', openapi: pets31 } });
    const api = mockOf(server);
    const list = await api.webhooks.documentWebhooks();
    expect(list.map((w) => `${w.method} ${w.name}`)).toEqual(['POST newPet', 'DELETE newPet']);
    const pet = list.find((w) => w.method === 'POST')!.payload as { id: number; name: string };
    expect(typeof pet.id).toBe('number');
    expect(typeof pet.name).toBe('string');
    await api.webhooks.sendDocumentWebhook('newPet', { url: `${recv.url}/pets`, method: 'POST' });
    await api.webhooks.sendDocumentWebhook('newPet', { url: `${recv.url}/pets`, body: { id: 9, name: 'Rex' } });
    const hooks = await recv.next(2);
    expect(hooks.map((h) => h.method)).toEqual(['POST', 'POST']);
    expect(Object.keys(hooks[0]!.json() as object)).toEqual(expect.arrayContaining(['id', 'name']));
    expect(hooks[1]!.json()).toEqual({ id: 9, name: 'Rex' });
    expect(hooks[0]!.headers['x-mockyard-event']).toBe('newPet');
    await expect(api.webhooks.sendDocumentWebhook('oldPet', { url: recv.url })).rejects.toThrow(/no webhook "oldPet"/);
  });

  it('x-mockyard-on binds a webhook to a request pattern: sent to the target set once', async () => {
    const recv = await receiver();
    const doc = structuredClone(pets31) as { webhooks: { newPet: { post: Record<string, unknown> } }; paths?: unknown };
    doc.webhooks.newPet.post['x-mockyard-on'] = 'POST /api/pets';
    doc.paths = {
      '/pets': { post: { requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } } }, responses: { '201': { description: 'made', content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } } } } } },
      '/pets/{petId}': { get: { parameters: [{ name: 'petId', in: 'path', required: true, schema: { type: 'integer' } }], responses: { '200': { description: 'a pet', content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } } } } } },
    };
    const server = await startServer({ mock: { endpointPrefix: '/api', fsDir: null, logLevel: 'silent', openapi: doc } });
    const api = mockOf(server);
    api.webhooks.target = `${recv.url}/bound`;
    const res = await fetch(`${server.url}/api/pets`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: 3, name: 'Tom' }) });
    expect(res.status).toBe(201);
    const [hook] = await recv.next(1);
    expect(hook!.url).toBe('/bound');
    expect(hook!.headers['x-mockyard-event']).toBe('newPet');
    // The pet this request created (the answer, which fits the webhook's Pet schema), not the example or a draw.
    expect(hook!.json()).toEqual(await res.json());
    expect(hook!.json()).toMatchObject({ name: 'Tom' });
    // An answer that breaks the webhook's schema is not sent as its payload: the drawn Pet is.
    api.use({ method: 'POST', pattern: '/pets', handle: (_req, res2) => res2.status(201).json({ name: 42 }) });
    expect((await fetch(`${server.url}/api/pets`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: 4, name: 'Max' }) })).status).toBe(201);
    const drawn = (await recv.next(2))[1];
    expect(typeof (drawn!.json() as { name: unknown }).name).toBe('string');
  });

  it('a webhook\'s required query parameters are sent (DELETE newPet?id=…), as its document declares them', async () => {
    const recv = await receiver();
    const server = await startServer({ mock: { endpointPrefix: '/api', fsDir: null, logLevel: 'silent', openapi: pets31 } });
    const sent = await fetch(`${server.url}/_mockyard/api/webhooks/send`, { method: 'POST', body: JSON.stringify({ name: 'newPet', method: 'DELETE', url: `${recv.url}/pets` }) });
    expect(sent.status).toBe(202);
    const [hook] = await recv.next(1);
    expect(hook!.method).toBe('DELETE');
    expect(hook!.url).toMatch(/^\/pets\?id=-?\d+$/); // integer, format int64: drawn with the seeded generator
    // A value the target URL already carries is kept.
    await mockOf(server).webhooks.sendDocumentWebhook('newPet', { url: `${recv.url}/pets?id=7`, method: 'DELETE' });
    expect((await recv.next(2))[1]!.url).toBe('/pets?id=7');
  });
});

describe('the contract: openapi.validateResponses / strictResponses read callbacks and webhooks too', () => {
  const drifting = (validate: 'validateResponses' | 'strictResponses') => {
    const doc = structuredClone(subscriptions) as any;
    const cb = doc.paths['/subscriptions/{topic}'].post.callbacks.event;
    const put = Object.values(cb)[0] as any;
    put.put.requestBody.content['application/json'] = { schema: { type: 'object', required: ['hello'], properties: { hello: { type: 'string' } } }, example: { hello: 5 } };
    doc.webhooks = { ping: { post: { requestBody: { content: { 'application/json': { schema: { type: 'object', required: ['id'], properties: { id: { type: 'integer' } } } } } }, responses: { '200': { description: 'ok' } } } } };
    return { document: doc, [validate]: true };
  };
  const logs = () => {
    const lines: string[] = [];
    return { lines, logger: { debug() {}, info() {}, warn: (m: string) => lines.push(`warn ${m}`), error: (m: string) => lines.push(`error ${m}`) } };
  };
  const subscribe = (server: RunningServer, url: string) => fetch(`${server.url}/api/subscriptions/news`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ callbackUrl: url }) });

  it('validateResponses: a callback payload that breaks its schema is logged (the pointer named) and sent', async () => {
    const recv = await receiver();
    const { lines, logger } = logs();
    const server = await startServer({ mock: { endpointPrefix: '/api', fsDir: null, logger, openapi: drifting('validateResponses') } });
    expect((await subscribe(server, `${recv.url}/cb`)).status).toBe(201);
    const [hook] = await recv.next(1);
    expect(hook!.json()).toEqual({ hello: 5 });
    expect(lines.filter((l) => l.includes('breaks'))).toEqual(['warn [mockyard] openapi: callback "event" (PUT): its payload breaks the document\'s schema: /hello must be string']);
  });

  it('strictResponses: such a callback is not sent; an edited webhook payload that breaks its schema is refused (422)', async () => {
    const recv = await receiver();
    const { lines, logger } = logs();
    const server = await startServer({ mock: { endpointPrefix: '/api', fsDir: null, logger, openapi: drifting('strictResponses') } });
    expect((await subscribe(server, `${recv.url}/cb`)).status).toBe(201);
    const api = mockOf(server);
    await api.webhooks.settled();
    expect(recv.received).toHaveLength(0);
    expect(lines.some((l) => l.startsWith('error') && l.includes('/hello must be string') && l.includes('not sent (strictResponses)'))).toBe(true);
    const refused = await fetch(`${server.url}/_mockyard/api/webhooks/send`, { method: 'POST', body: JSON.stringify({ name: 'ping', url: `${recv.url}/p`, body: { id: 'x' } }) });
    expect(refused.status).toBe(422);
    expect((await refused.json()).message).toMatch(/\/id must be integer/);
    expect((await fetch(`${server.url}/_mockyard/api/webhooks/send`, { method: 'POST', body: JSON.stringify({ name: 'ping', url: `${recv.url}/p`, body: { id: 3 } }) })).status).toBe(202);
    await recv.next(1);
  });
});
