/**
 * A config webhook sent from the page: `startWorker` (both engines in the page, behind the
 * service worker) with `mock.webhooks` after `POST /api/orders`, signed, to the receiver named by
 * `?receiver=` (a CORS-enabled node:http server on 127.0.0.1 the test starts).
 */
import { memoryFs, startWorker } from 'mockyard/browser';

const receiver = new URLSearchParams(location.search).get('receiver') ?? '';
const started = startWorker({
  mock: {
    endpointPrefix: '/api',
    fs: memoryFs({ 'orders.json': [] }),
    collections: true,
    logLevel: 'silent',
    webhooks: [{ on: 'POST /api/orders', url: `${receiver}/hooks/orders`, secret: 's3cret', event: 'order.created' }],
  },
  quiet: true,
});
Object.assign(window, { mockyard: { started: started.then(() => 'ok', (err: Error) => err.message), worker: started } });
void started.then(() => (document.getElementById('status')!.textContent = 'ready'));
