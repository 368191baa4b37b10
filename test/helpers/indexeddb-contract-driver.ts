/**
 * The IndexedDB driver for the shared Vfs contract suite (test/vfs/contract.ts): a fresh database
 * per test, deleted afterwards. Runs on fake-indexeddb (vitest) and on Chromium's own IndexedDB
 * (the e2e contract page).
 */
import { indexedDbFs } from '../../src/vfs/indexeddb.js';

let seq = 0;

export function freshIndexedDb() {
  const name = `contract-${++seq}-${Date.now()}`;
  return {
    vfs: indexedDbFs(name),
    cleanup: () =>
      new Promise<void>((resolve) => {
        const req = indexedDB.deleteDatabase(name);
        req.onsuccess = req.onerror = req.onblocked = () => resolve();
      }),
  };
}
