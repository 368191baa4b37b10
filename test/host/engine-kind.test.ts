/**
 * Which ready-made engine is the mock API and which the collector is their `kind`
 * (engine/is-mock-api.ts, tracker/is-collector.ts), the one test every host part uses: an engine
 * of the user's own that happens to have a `basePath` or a `useScenario` is neither, and a mock
 * API or collector handed over ready-made (as the CLI hands its engines to `serve`) is found
 * wherever it stands in the list. Through a real server: the devtools routes and the journal.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../src/core/engine.js';
import { createMockApi } from '../../src/engine/create-mock-api.js';
import { isMockApi } from '../../src/engine/is-mock-api.js';
import { createCollector } from '../../src/tracker/collector.js';
import { isCollector } from '../../src/tracker/is-collector.js';
import { memoryFs } from '../../src/vfs/memory.js';
import { closeServers, startServer } from '../helpers/server.js';

afterEach(closeServers);

/** A user's engine with properties a duck test would take for a collector's and a mock API's. */
function lookalike(): Engine & { basePath: string; useScenario(): void } {
  return {
    prefixes: ['/own'],
    basePath: '/own',
    useScenario() {},
    handle: async (request) => (new URL(request.url).pathname.startsWith('/own') ? Response.json({ own: true }) : undefined),
  };
}

describe('engine kinds', () => {
  it('the mock API and the collector say what they are; wrappers through the prototype keep it', async () => {
    const api = createMockApi({ endpointPrefix: '/api', logLevel: 'silent', fs: memoryFs({ 'users.json': [] }) });
    const collector = createCollector({ appId: 'kinds', logLevel: 'silent', basePath: '/_tracker', storage: { fs: memoryFs() } });
    try {
      expect(isMockApi(api)).toBe(true);
      expect(isCollector(collector)).toBe(true);
      expect(isMockApi(collector) || isCollector(api)).toBe(false);
      expect(isMockApi(Object.create(api) as Engine)).toBe(true);
      expect(isMockApi(lookalike()) || isCollector(lookalike())).toBe(false);
    } finally {
      await api.close();
      await collector.close();
    }
  });

  it('ready-made engines: the look-alike is neither mock API nor collector; the real ones are found behind it', async () => {
    const api = createMockApi({ endpointPrefix: '/api', logLevel: 'silent', fs: memoryFs({ 'users.json': [{ id: 1 }] }) });
    const collector = createCollector({ appId: 'kinds', logLevel: 'silent', basePath: '/_tracker', storage: { fs: memoryFs() } });
    const s = await startServer({ engines: [lookalike(), api, collector] });
    try {
      const routes = await (await fetch(`${s.url}/_mockyard/api/routes`)).json();
      expect(routes.mock?.prefixes).toEqual(['/api']);
      expect(routes.collector?.basePath).toBe('/_tracker');
      expect((await fetch(`${s.url}/own/x`)).status).toBe(200);
      expect((await fetch(`${s.url}/api/users`)).status).toBe(200);
      expect((await fetch(`${s.url}/_tracker/ping`)).status).toBe(200);
      const journal = await (await fetch(`${s.url}/_mockyard/api/requests`)).json();
      const seen = journal.entries.map((e: { url: string; answeredBy?: { layer: string } }) => `${e.url} ${e.answeredBy?.layer}`);
      expect(seen).toContain('/api/users files');
      expect(seen).toContain('/_tracker/ping collector');
      expect(seen.filter((e: string) => e.startsWith('/own'))).toEqual([]); // not taken for the collector
    } finally {
      await api.close();
      await collector.close();
    }
  });
});
