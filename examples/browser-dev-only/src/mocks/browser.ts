import { indexedDbFs, startWorker, type PageWorker } from 'mockyard/browser';

// Keep the fs: `await fs.reset()` puts the seed back (a "reset data" button, a test).
export const fs = indexedDbFs('my-app', {
  seed: { 'users.json': [{ id: 1, name: 'Ada' }] },
});

export function startMocks(): Promise<PageWorker> {
  return startWorker({ mock: { endpointPrefix: '/api', fs, preset: 'json-server' } });
}
