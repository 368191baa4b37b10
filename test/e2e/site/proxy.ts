/**
 * Browser mode with `proxy` (test/e2e/proxy.e2e.ts): a mock API in the page with a few mock files
 * and a proxy target the worker never contacts itself; what the mocks do not answer goes to the
 * network, i.e. to the page's own server, whose proxy (like Vite's `server.proxy`) reaches the
 * real API.
 */
import { indexedDbFs, startWorker } from 'mockyard/browser';

const started = startWorker({
  mock: {
    endpointPrefix: '/api',
    fs: indexedDbFs(`e2e-proxy-${location.port}`, { seed: { 'users.json': [{ id: 1, name: 'Ada' }], 'users/1.json': { id: 1, name: 'Ada' } } }),
    logLevel: 'silent',
    proxy: { target: 'http://staging.mockyard.invalid' },
  },
  quiet: true,
});
Object.assign(window, { mockyard: { started: started.then(() => 'ok', (err: Error) => err.message) } });
void started.then(() => (document.getElementById('status')!.textContent = 'ready'));
