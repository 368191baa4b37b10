/**
 * json-server's db.json in the page: `db: 'db.json'` over IndexedDB with the
 * json-server preset, through `mockyard/browser` — collections, the query syntax, writes kept across
 * a reload (the whole db.json lives in one IndexedDB file).
 */
import { indexedDbFs, startWorker } from 'mockyard/browser';

const db = {
  posts: [{ id: 1, title: 'json-server', author: 'typicode', views: 10 }, { id: 2, title: 'mockyard', author: 'me', views: 20 }],
  comments: [{ id: 1, body: 'some comment', postId: 1 }],
  profile: { name: 'typicode' },
};

const fs = indexedDbFs('e2e-jsondb', { seed: { 'db.json': db } });
const started = startWorker({
  mock: { endpointPrefix: '/api', fs, db: 'db.json', preset: 'json-server', logLevel: 'silent' },
  quiet: true,
});
Object.assign(window, {
  mockyard: {
    started: started.then(() => 'ok', (err: Error) => err.message),
    /** The db.json as stored in IndexedDB (after the driver's coalesced rewrite). */
    stored: async () => JSON.parse(new TextDecoder().decode(await fs.read('db.json'))),
    reset: () => fs.reset(),
    /** Saves pending db.json writes now (the driver coalesces them for up to 25 ms). */
    flush: async () => ((await started).mock as unknown as { app: { fs: { flush(): Promise<void> } } }).app.fs.flush(),
  },
});
void started.then(() => (document.getElementById('status')!.textContent = 'ready'));
