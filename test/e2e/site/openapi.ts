/**
 * An OpenAPI document served in the page (`mock.openapi: { document }`, the document imported as
 * an object: no file): ReadMe's API 3.1 (test/fixtures/openapi/readme-3.1.json) through the
 * service worker — generated, seeded, stateful collections and the document's contract.
 */
import { indexedDbFs, startWorker } from 'mockyard/browser';
import readme from '../../fixtures/openapi/readme-3.1.json' with { type: 'json' };

const started = startWorker({
  mock: { endpointPrefix: '/v2', fs: indexedDbFs('e2e-openapi'), logLevel: 'silent', openapi: { document: readme, seed: 3 } },
  quiet: true,
});
Object.assign(window, { mockyard: { started: started.then(() => 'ok', (err: Error) => err.message) } });
void started.then(() => (document.getElementById('status')!.textContent = 'ready'));
