/**
 * The shared Vfs contract suite (test/vfs/contract.ts), unchanged, on Chromium's real
 * IndexedDB. `vitest` is aliased to ./vitest-shim.ts for this page (see global-setup.ts).
 */
// The driver from the sources, like the suite's own imports (one VfsError class for isVfsError).
import { indexedDbFs } from '../../../src/vfs/indexeddb.js';
import { runAll } from './vitest-shim.js';
import { vfsContract } from '../../vfs/contract.js';

let seq = 0;
vfsContract('indexeddb (Chromium)', () => {
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

const results = runAll();
Object.assign(window, { __results: results });
void results.then((r) => {
  document.getElementById('status')!.textContent = `${r.filter((x) => x.ok).length}/${r.length} passed`;
});
