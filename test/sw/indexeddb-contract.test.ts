/** The shared Vfs contract (test/vfs/contract.ts) on indexedDbFs over fake-indexeddb. */
import 'fake-indexeddb/auto';
import { indexedDbFs } from '../../src/vfs/indexeddb.js';
import { vfsContract } from '../vfs/contract.js';

let seq = 0;
vfsContract('indexeddb (fake-indexeddb)', () => {
  const name = `contract-${++seq}-${Date.now()}`;
  return {
    vfs: indexedDbFs(name),
    cleanup: () =>
      new Promise<void>((resolve) => {
        const req = indexedDB.deleteDatabase(name);
        req.onsuccess = req.onerror = req.onblocked = () => resolve();
      }),
  };
});
