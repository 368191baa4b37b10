/**
 * A HAR log holding the same request very many times (a page polling `/api/status` for hours:
 * 150,000 entries of one method, path and query) is served: the entry with the most request
 * headers equal is picked, the first recorded on a tie. Before, the pick spread every entry's
 * count into Math.max, which throws past about 120,000 arguments: every such request was a 500.
 * A real server on 127.0.0.1, real fetch.
 */
import { afterEach, expect, it } from 'vitest';
import { closeServers, startServer } from '../../helpers/server.js';

afterEach(closeServers);

it('serves a path recorded 150,000 times, picking by request headers', async () => {
  const entry = (n: number, headers: Array<{ name: string; value: string }> = []) => ({
    request: { method: 'GET', url: 'http://app.test/api/status', headers, queryString: [] },
    response: { status: 200, statusText: 'OK', headers: [{ name: 'Content-Type', value: 'application/json' }], content: { mimeType: 'application/json', text: `{"n":${n}}` } },
  });
  const entries = Array.from({ length: 150_000 }, (_, i) => entry(i));
  entries[120_500] = entry(120_500, [{ name: 'X-Tenant', value: 'b' }]);
  const s = await startServer({ mock: { endpointPrefix: '/api', logLevel: 'silent', fsDir: null, har: { log: { version: '1.2', entries } } } });
  const plain = await fetch(`${s.url}/api/status`);
  expect(plain.status).toBe(200);
  expect(await plain.json()).toEqual({ n: 0 });
  const tenant = await fetch(`${s.url}/api/status`, { headers: { 'x-tenant': 'b' } });
  expect(await tenant.json()).toEqual({ n: 120_500 });
}, 60_000);
