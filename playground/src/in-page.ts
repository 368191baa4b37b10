/**
 * The in-page backend: both engines behind an msw service worker, files on IndexedDB. Only ever
 * loaded through the dynamic import in host.ts, behind `import.meta.env.DEV` (or the
 * VITE_MOCKYARD_IN_PAGE=on build flag the e2e suite uses): a production build contains none of it.
 */
import { indexedDbFs, startWorker } from 'mockyard/browser';
import { teamTasksMock, teamTasksTracker } from '../shared/team-tasks.mjs';
import { seed } from './seed.js';

/** Kept so the app (or a devtools snippet) can `await fs.reset()` to go back to the seed. */
export const fs = indexedDbFs('mockyard-playground', { seed });

export function startInPage() {
  return startWorker({
    mock: teamTasksMock(fs),
    tracker: teamTasksTracker(indexedDbFs('mockyard-playground-events')),
    quiet: true,
  });
}
