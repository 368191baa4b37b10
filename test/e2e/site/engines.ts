/**
 * Both engines, unchanged, in the page through `mockyard/browser` with option objects (as a user
 * writes them): handlers (multipart, JSON parsing, gateway timeout,
 * REST-to-WebSocket push) and the collector with an apiKey and its events on IndexedDB.
 */
import { indexedDbFs, startWorker } from 'mockyard/browser';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const started = startWorker({
  mock: {
    endpointPrefix: '/api',
    fs: indexedDbFs('e2e-engines', { seed: { 'users.json': [{ id: 1, name: 'Ada' }, { id: 2, name: 'Grace' }], 'docs/readme.txt': 'hello docs' } }),
    gatewayTimeout: 300,
    logLevel: 'silent',
    handlers: [
      { pattern: '/slow', method: 'GET', handle: async () => { await sleep(1500); return { late: true }; } },
      {
        pattern: '/upload',
        method: 'POST',
        handle: (req) => ({
          body: req.body,
          files: req.files.map((f) => ({ fieldName: f.fieldName, filename: f.filename, contentType: f.contentType, size: f.bytes.byteLength, sum: f.bytes.reduce((a, b) => a + b, 0) })),
        }),
      },
      { pattern: '/echo', method: 'POST', handle: (req) => ({ body: req.body }) },
      { pattern: '/delayed', method: 'GET', delay: 250, handle: () => ({ which: 'delayed' }) },
      { pattern: '/quick', method: 'GET', handle: () => ({ which: 'quick' }) },
      { pattern: '/notify', method: 'POST', handle: (req) => ({ reached: req.app.ws.broadcast('/push', { note: (req.body as { note: string }).note }) }) },
    ],
    enableWs: true,
    wsHandlers: [{ pattern: '/push', onMessage() {} }],
    scenarios: { calm: { handlers: [{ pattern: '/quick', method: 'GET', handle: () => ({ which: 'calm' }) }] } },
  },
  tracker: { appId: 'e2e', apiKey: 'k1', logLevel: 'silent', storage: { fs: indexedDbFs('e2e-events') } },
  quiet: true,
});
Object.assign(window, { mockyard: { started: started.then(() => 'ok', (err: Error) => err.message) } });
void started.then(() => (document.getElementById('status')!.textContent = 'ready'));
