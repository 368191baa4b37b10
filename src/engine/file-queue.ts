/**
 * THE per-file write queue of a mock API: every writer of its files takes its turn here, one
 * order per file — file mode's PUT/POST/DELETE/PATCH, the store's writes (REST collections,
 * GraphQL, `req.app.store`, the devtools' data tab) and the devtools' own file edits and new
 * routes (devtools/admin-files.ts). Keyed by the API's `app` (what `req.app` is), so the engine
 * and the devtools, which only hold the MockApi, find the same queue.
 */
import { KeyedQueue } from '../core/keyed-queue.js';

const queues = new WeakMap<object, KeyedQueue>();

/** The file queue of the mock API whose `app` this is (made on first use). */
export function fileQueueOf(app: object): KeyedQueue {
  let queue = queues.get(app);
  if (queue === undefined) queues.set(app, (queue = new KeyedQueue()));
  return queue;
}
