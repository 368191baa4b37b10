/**
 * The shared Vfs contract suite (test/vfs/contract.ts), unchanged, on Chromium's real
 * IndexedDB. `vitest` is aliased to ./vitest-shim.ts for this page (see global-setup.ts).
 */
// The driver from the sources, like the suite's own imports (one VfsError class for isVfsError).
import { freshIndexedDb } from '../../helpers/indexeddb-contract-driver.js';
import { runAll } from './vitest-shim.js';
import { vfsContract } from '../../vfs/contract.js';

vfsContract('indexeddb (Chromium)', freshIndexedDb);

const results = runAll();
Object.assign(window, { __results: results });
void results.then((r) => {
  document.getElementById('status')!.textContent = `${r.filter((x) => x.ok).length}/${r.length} passed`;
});
