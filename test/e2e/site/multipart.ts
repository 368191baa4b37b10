/**
 * The multipart JSON-part table (test/helpers/multipart-json-table.ts) in the page: `startWorker`
 * serves the same engine options on a memoryFs, and `window.mockyard.runTable()` sends the table's
 * requests with the page's own fetch, through the service worker.
 */
import { memoryFs, startWorker } from 'mockyard/browser';
import { MULTIPART_TABLE_FILES, multipartTableOptions, runMultipartTable } from '../../helpers/multipart-json-table.js';

const started = startWorker({ mock: multipartTableOptions(memoryFs(MULTIPART_TABLE_FILES)), quiet: true });
Object.assign(window, {
  mockyard: {
    started: started.then(() => 'ok', (err: Error) => err.message),
    runTable: () => runMultipartTable(location.origin),
  },
});
void started.then(() => (document.getElementById('status')!.textContent = 'ready'));
