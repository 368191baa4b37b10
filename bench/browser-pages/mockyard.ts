// The measured page: startWorker with indexedDbFs, both engines and one handler.
import { indexedDbFs, startWorker } from 'mockyard/browser';

const STATUSES = ['todo', 'doing', 'done'];
const items = Array.from({ length: 10_000 }, (_, i) => ({ id: i + 1, title: `Item ${i + 1}`, status: STATUSES[i % 3], points: i % 13 }));
const seed = {
  'small.json': { id: 1, name: 'Ada Lovelace', role: 'admin' },
  'items.json': items,
};

Object.assign(window, {
  ready: startWorker({
    mock: {
      endpointPrefix: '/api',
      fs: indexedDbFs('mockyard-bench', { seed }),
      pagination: { GET: { type: 'query-param', limit: 'limit', skip: 'skip', sort: 'sort', order: 'order' } },
      filters: { GET: { type: 'query-param', filters: [{ key: 'status', comparison: 'eq' }] } },
      handlers: [{ pattern: '/hello', method: 'GET', handle: () => ({ hello: 'world' }) }],
    },
    tracker: { appId: 'bench' },
    quiet: true,
  }).then(() => 'ok'),
});
