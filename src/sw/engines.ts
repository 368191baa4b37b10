/**
 * The page host's engines from `startWorker` options: `tracker` (collector options or a ready
 * engine) first, since it lives under one fixed base path, then `mock` (mock API options or a
 * ready engine) — the same order as the node host. Engines built here are owned (closed by
 * `stop()`); ready engines stay the caller's.
 */
import { isEngine, type Engine } from '../core/engine.js';
import { OptionsError, check } from '../core/options.js';
import { resolveProxy } from '../engine/options.js';
import type { MockApiOptions } from '../engine/types.js';
import { createCollector } from '../tracker/collector.js';
import type { Collector, CollectorOptions } from '../tracker/types.js';

export interface EngineFactories<M, T> {
  mock: (options: M) => Engine;
  tracker: (options: T) => Engine;
}

export interface PageEngines {
  engines: Engine[];
  owned: Engine[];
  mock?: Engine;
  tracker?: Engine;
}

export function buildEngines<M extends object, T extends object>(
  sources: { mock?: M | Engine | null; tracker?: T | Engine | null },
  factories: EngineFactories<M, T>,
): PageEngines {
  const out: PageEngines = { engines: [], owned: [] };
  const { mock, tracker } = sources;
  if (tracker != null) {
    if (isEngine(tracker)) out.tracker = tracker;
    else {
      check.object(tracker, 'tracker');
      out.tracker = factories.tracker(tracker);
      out.owned.push(out.tracker);
    }
    out.engines.push(out.tracker);
  }
  if (mock != null) {
    if (isEngine(mock)) out.mock = mock;
    else {
      check.object(mock, 'mock');
      if (!(mock as { fs?: unknown }).fs) {
        throw new OptionsError('mock.fs', 'is required in the browser: pass indexedDbFs(name, { seed }) (or memoryFs(tree))');
      }
      out.mock = factories.mock(mock);
      out.owned.push(out.mock);
    }
    out.engines.push(out.mock);
  }
  return out;
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
  return { ...rest, noHandledRestFsRequestsAction: 'forward' };
}

/**
 * The page's collector from options: reads answer plain JSON unless `readCompression` says
 * otherwise. A mocked response never reaches the browser's decoder, so this host would only
 * gunzip what the collector gzipped (response.ts), and the deflater (fflate) is never fetched.
 */
export function pageCollector(options: CollectorOptions): Collector {
  return createCollector(options.readCompression === undefined ? { ...options, readCompression: 'none' } : options);
}
