/**
 * A small OpenAPI document with named examples served in the page (test/e2e/devtools-editor-sw.e2e.ts):
 * the devtools overlay's OpenAPI tab over the tab's own engine.
 */
import { memoryFs, startWorker } from 'mockyard/browser';

const pet = { type: 'object', required: ['id', 'name'], properties: { id: { type: 'integer' }, name: { type: 'string' } } };
const doc = {
  openapi: '3.0.3',
  info: { title: 'pets', version: '1' },
  paths: {
    '/pets/{id}': {
      get: {
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
        responses: {
          '200': { description: 'a pet', content: { 'application/json': { schema: pet, examples: { rex: { value: { id: 1, name: 'Rex' } }, tom: { value: { id: 1, name: 'Tom' } } } } } },
          '404': { description: 'no such pet' },
        },
      },
    },
  },
};

const started = startWorker({ mock: { endpointPrefix: '/api', fs: memoryFs({}), logLevel: 'silent', openapi: { document: doc } }, quiet: true });
Object.assign(window, { mockyard: { started: started.then(() => 'ok', (err: Error) => err.message) } });
void started.then(() => (document.getElementById('status')!.textContent = 'ready'));
