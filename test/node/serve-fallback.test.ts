/**
 * serve({ fallback }): asked only for what no engine answered, before the JSON 404, and never in
 * the way of an engine's synchronous fast path (a fallback is not a routing engine).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { FastResponse } from '../../src/core/fast-response.js';
import type { Engine } from '../../src/core/engine.js';
import { serve, type RunningServer } from '../../src/node/serve.js';

const servers: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

describe('serve({ fallback })', () => {
  it('answers what no engine answered; the JSON 404 when it passes too; engines keep handleCached', async () => {
    let cachedCalls = 0;
    const engine: Engine = {
      prefixes: ['/api'],
      handle: async () => FastResponse.json('{"via":"handle"}'),
      handleCached: () => {
        cachedCalls++;
        return FastResponse.json('{"via":"cached"}');
      },
    };
    const seen: string[] = [];
    const server = await serve({
      engines: [engine],
      port: 0,
      logLevel: 'silent',
      fallback: (request) => {
        seen.push(new URL(request.url).pathname);
        return new URL(request.url).pathname === '/' ? FastResponse.json('{"home":true}') : undefined;
      },
    });
    servers.push(server);
    expect(await (await fetch(`${server.url}/api/x`)).json()).toEqual({ via: 'cached' });
    expect(cachedCalls).toBe(1);
    expect(await (await fetch(`${server.url}/`)).json()).toEqual({ home: true });
    const miss = await fetch(`${server.url}/elsewhere`);
    expect(miss.status).toBe(404);
    expect((await miss.json()).path).toBe('/elsewhere');
    expect(seen).toEqual(['/', '/elsewhere']);
  });
});
