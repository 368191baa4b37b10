/**
 * GraphQL in the page: the json-server preset over a db.json on IndexedDB, through `mockyard/browser`
 * — queries and mutations by fetch, subscriptions with the `graphql-ws` client over the page's
 * WebSocket (intercepted by the worker host's socket support).
 */
import { createClient } from 'graphql-ws';
import { graphql, indexedDbFs, startWorker } from 'mockyard/browser';

const db = {
  posts: [{ id: 1, title: 'json-server', views: 10, user_id: 1 }],
  users: [{ id: 1, name: 'Ada' }],
};

const fs = indexedDbFs('e2e-graphql', { seed: { 'db.json': db } });
const started = startWorker({
  mock: {
    endpointPrefix: '/api',
    fs,
    db: 'db.json',
    preset: 'json-server',
    logLevel: 'silent',
    // A subscription fed by a handler (not by the data).
    handlers: [
      graphql.subscription('Countdown', async function* ({ variables }) {
        for (let n = Number(variables.from); n > 0; n--) yield { data: { countdown: n } };
      }),
    ],
  },
  quiet: true,
});

const events: unknown[] = [];
Object.assign(window, {
  mockyard: {
    started: started.then(() => 'ok', (err: Error) => err.message),
    reset: () => fs.reset(),
    /** A per-test override of one query (api.use), or back to the configured handlers. */
    override: async (on: boolean) => {
      const { mock } = await started;
      if (on) mock!.use(graphql.query('Titles', () => ({ data: { allPosts: [{ title: 'overridden in the page' }] } })));
      else mock!.resetHandlers();
    },
    events: () => events.slice(),
    /** Every `next` of one operation over graphql-ws, once it completes. */
    collect: (query: string, variables: Record<string, unknown>) =>
      new Promise<unknown[]>((resolve, reject) => {
        const client = createClient({ url: `${location.origin.replace(/^http/, 'ws')}/api/graphql`, retryAttempts: 0 });
        const got: unknown[] = [];
        client.subscribe({ query, variables }, { next: (v) => got.push(v), error: reject, complete: () => (void client.dispose(), resolve(got)) });
      }),
    /** Subscribes (graphql-ws over the page's WebSocket); resolves once the server has set it up. */
    subscribe: (query: string) =>
      new Promise<string>((resolve, reject) => {
        const client = createClient({ url: `${location.origin.replace(/^http/, 'ws')}/api/graphql`, retryAttempts: 0 });
        client.subscribe({ query }, { next: (v) => events.push(v), error: reject, complete: () => undefined });
        // A query on the same socket is answered after the subscription was set up.
        client.subscribe({ query: '{ _allPostsMeta { count } }' }, { next: () => undefined, error: reject, complete: () => resolve('subscribed') });
      }),
  },
});
void started.then(() => (document.getElementById('status')!.textContent = 'ready'));
