/**
 * The page host from `startWorker` options: `createHost` (src/host/, same order, ownership and
 * dispatch as every host) on the page's runtime object. What is particular to the page lives in
 * that runtime: no default filesystem (the mock API needs `fs`), no proxy layer (the worker
 * forwards to the network), and the collector answers plain JSON.
 */
import { OptionsError } from '../core/options.js';
import { createMockApi, type MockApi } from '../engine/create-mock-api.js';
import { kNetworkBehind } from '../engine/options.js';
import { resolveProxy } from '../engine/proxy/options.js';
import type { MockApiOptions } from '../engine/mock-api-options.js';
import { createCollector } from '../tracker/collector.js';
import type { Collector, CollectorOptions } from '../tracker/types.js';
import { createHost, type Host } from '../host/create-host.js';
import type { EngineSources } from '../host/engine-set.js';
import type { Runtime } from '../host/runtime.js';

/** The page's runtime: web-standard everything, and the options the page needs. */
export const pageRuntime: Runtime = {
  mockOptions(options) {
    if (!(options as { fs?: unknown }).fs) {
      throw new OptionsError('mock.fs', 'is required in the browser: pass indexedDbFs(name, { seed }) (or memoryFs(tree))');
    }
    return pageMockOptions(options);
  },
  collectorOptions: (options) => (options.readCompression === undefined ? { ...options, readCompression: 'none' } : options),
};

export function pageHost(sources: EngineSources<MockApiOptions, CollectorOptions>): Promise<Host> {
  return createHost({ ...sources, runtime: pageRuntime, local: true });
}

/** The page's mock API: `fs` is required (IndexedDB or memory), there is no disk default. */
export function pageMockApi(options: MockApiOptions): MockApi {
  return createMockApi(pageRuntime.mockOptions!(options), pageRuntime);
}

/**
 * The page's mock API options. `proxy` is the node host's business: in the page the worker
 * itself lets a request through to the network when the engine answers `undefined` (routes.ts),
 * so a mock API with `proxy` becomes one with `noHandledRestFsRequestsAction: 'forward'`: what no
 * handler or file answers goes, unchanged, to wherever the page sent it (the page's own server,
 * e.g. a Vite dev server with `server.proxy`). A worker fetching `proxy.target` itself would
 * need the target to allow the page's origin (CORS) and would drop the browser's cookies.
 * The proxy options are still validated (a typo is reported in every host alike).
 */
export function pageMockOptions(options: MockApiOptions): MockApiOptions {
  if (options.proxy === undefined || options.proxy === null) return options;
  resolveProxy(options.proxy, 'mock.proxy');
  const { proxy: _proxy, ...rest } = options;
  // Writes naming nothing the mocks hold go to the network too (src/engine/files/unmocked-write.ts).
  return { ...rest, noHandledRestFsRequestsAction: 'forward', [kNetworkBehind]: true } as MockApiOptions;
}

/**
 * The page's collector from options: reads answer plain JSON unless `readCompression` says
 * otherwise. A mocked response never reaches the browser's decoder, so this host would only
 * gunzip what the collector gzipped (host/page-response.ts), and the deflater (fflate) is never fetched.
 */
export function pageCollector(options: CollectorOptions): Collector {
  return createCollector(pageRuntime.collectorOptions!(options), pageRuntime);
}
