/**
 * Subscriptions an SDL declares (schema-first), fed by handlers: `graphql.subscription('OnTick',
 * async function* () { yield { data } })`, over the `graphql-transport-ws` WebSocket of a real
 * server, with the real `graphql-ws` client. Each event is a `next`; the end of the generator is
 * `complete`; the client completing it closes the generator (its `finally` runs); a throw is an
 * `{ errors }` event; `api.use` overrides a subscription handler; GraphQL handlers for queries
 * and mutations also answer over the socket; a subscription sent over HTTP is a 400.
 */
import { createClient, type Client } from 'graphql-ws';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { HttpError } from '../../../src/core/errors.js';
import { createMockApi, type MockApi } from '../../../src/engine/create-mock-api.js';
import { graphql } from '../../../src/engine/handler-api/operation-handlers.js';
import { memoryFs } from '../../../src/vfs/memory.js';
import { closeServers, startServer } from '../../helpers/server.js';

const SDL = `
  type Tick { n: Int!  label: String }
  type Query { hello: String }
  type Subscription { onTick(label: String): Tick! }
`;

const apis: MockApi[] = [];
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.dispose()));
  await closeServers();
  await Promise.all(apis.splice(0).map((a) => a.close()));
});

let closedGenerators = 0;
let releaseTick: (() => void) | undefined;

async function serve(): Promise<{ api: MockApi; url: string }> {
  closedGenerators = 0;
  const api = createMockApi({
    endpointPrefix: '/api',
    logLevel: 'silent',
    fs: memoryFs({ 'schema.graphql': SDL }),
    graphql: { schema: 'schema.graphql' },
    handlers: [
      graphql.subscription('OnTick', async function* ({ variables }) {
        for (let n = 1; n <= 3; n++) yield { data: { onTick: { n, label: variables.label ?? null } } };
      }),
      graphql.subscription('Forever', async function* () {
        try {
          for (let n = 1; ; n++) {
            yield { data: { onTick: { n } } };
            // The next event waits for the test (no timer): the test decides when it comes.
            await new Promise<void>((resolve) => (releaseTick = resolve));
          }
        } finally {
          closedGenerators++;
        }
      }),
      graphql.subscription('Broken', async function* () {
        yield { data: { onTick: { n: 1 } } };
        throw new HttpError(403, 'No more ticks for you');
      }),
      graphql.query('Hello', () => ({ data: { hello: 'from a handler' } })),
    ],
  });
  apis.push(api);
  const server = await startServer({ mock: api });
  return { api, url: `${server.url}/api/graphql` };
}

function client(url: string): Client {
  const c = createClient({ url: url.replace(/^http/, 'ws'), webSocketImpl: WebSocket, retryAttempts: 0, lazy: true });
  clients.push(c);
  return c;
}

/** Every `next` of a subscription until it completes (or errors). */
function collect(c: Client, query: string, variables?: Record<string, unknown>): Promise<unknown[]> {
  const got: unknown[] = [];
  return new Promise((resolve, reject) => {
    c.subscribe({ query, variables }, { next: (v) => got.push(v), error: reject, complete: () => resolve(got) });
  });
}

describe('SDL subscriptions fed by graphql.subscription handlers (graphql-transport-ws)', () => {
  it('streams each event as next, then complete; variables reach the handler', async () => {
    const { url } = await serve();
    const c = client(url);
    expect(await collect(c, 'subscription OnTick($label: String) { onTick(label: $label) { n label } }', { label: 'a' })).toEqual([
      { data: { onTick: { n: 1, label: 'a' } } },
      { data: { onTick: { n: 2, label: 'a' } } },
      { data: { onTick: { n: 3, label: 'a' } } },
    ]);
    // Queries over the same socket reach the query handlers too.
    expect(await collect(c, 'query Hello { hello }')).toEqual([{ data: { hello: 'from a handler' } }]);
  });

  it('the client completing the subscription closes the generator', async () => {
    const { url } = await serve();
    const c = client(url);
    const seen: unknown[] = [];
    let stop!: () => void;
    const first = new Promise<void>((resolve) => {
      stop = c.subscribe({ query: 'subscription Forever { onTick { n } }' }, { next: (v) => (seen.push(v), resolve()), error: () => undefined, complete: () => undefined });
    });
    await first;
    expect(seen).toEqual([{ data: { onTick: { n: 1 } } }]);
    stop(); // the client sends complete
    // An async generator is closed at its next step (return() cannot cut an await short): let
    // it step until the server, once the complete message arrived, has closed it.
    await expect
      .poll(() => {
        releaseTick?.();
        return closedGenerators;
      })
      .toBe(1);
  });

  it('a throw in the handler ends the subscription with an { errors } event (extensions.code)', async () => {
    const { url } = await serve();
    expect(await collect(client(url), 'subscription Broken { onTick { n } }')).toEqual([
      { data: { onTick: { n: 1 } } },
      { errors: [{ message: 'No more ticks for you', extensions: { code: 'FORBIDDEN' } }] },
    ]);
  });

  it('api.use overrides a subscription handler; resetHandlers brings the configured one back', async () => {
    const { api, url } = await serve();
    api.use(
      graphql.subscription('OnTick', async function* () {
        yield { data: { onTick: { n: 42, label: 'override' } } };
      }),
    );
    const c = client(url);
    expect(await collect(c, 'subscription OnTick { onTick { n label } }')).toEqual([{ data: { onTick: { n: 42, label: 'override' } } }]);
    api.resetHandlers();
    expect(await collect(c, 'subscription OnTick { onTick { n } }')).toHaveLength(3);
  });

  it('an SDL subscription no handler feeds: one { errors } event naming the handler to add', async () => {
    const { url } = await serve();
    expect(await collect(client(url), 'subscription Unfed { onTick { n } }')).toEqual([
      { errors: [{ message: "No handler feeds the subscription field onTick: add graphql.subscription('Unfed', async function* () { yield { data: { onTick: … } }; }) to the handlers", locations: [{ line: 1, column: 22 }], path: ['onTick'], extensions: { code: 'NOT_IMPLEMENTED' } }] },
    ]);
  });

  it('a subscription sent over HTTP is a 400 naming the WebSocket', async () => {
    const { url } = await serve();
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: 'subscription OnTick { onTick { n } }' }) });
    expect(res.status).toBe(400);
    expect((await res.json()).message).toMatch(/WebSocket/);
  });
});
