/**
 * A HAR log served in the page (`mock.har` as the object: no file): the log Chromium wrote through
 * playwright-core's recordHar (test/fixtures/har/chromium-recordhar.har, bundled as an asset and
 * fetched before the worker starts), answered by the service worker as the browser first got it.
 */
import { memoryFs, startWorker } from 'mockyard/browser';

const started = fetch(new URL('../../fixtures/har/chromium-recordhar.har', import.meta.url))
  .then((r) => r.json())
  .then((har) => startWorker({ mock: { endpointPrefix: '/api', fs: memoryFs(), logLevel: 'silent', har }, quiet: true }));
Object.assign(window, { mockyard: { started: started.then(() => 'ok', (err: Error) => err.message) } });
void started.then(() => (document.getElementById('status')!.textContent = 'ready'));
