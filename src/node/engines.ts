/**
 * Turns host options (`mock`, `tracker`, `engines`) into the ordered list of engines a host
 * tries: the collector first (it lives under one fixed base path), then the mock API (whose
 * prefix may be broad), then any extra engines. Option objects are turned into engines here;
 * ready-made engines are used as given and stay owned by the caller (hosts close only the
 * engines they created).
 */
import { isEngine, type Engine } from '../core/engine.js';
import type { LoggerSink } from '../core/logger.js';
import { OptionsError } from '../core/options.js';
import { createMockApi } from '../engine/create-mock-api.js';
import type { MockApiOptions } from '../engine/types.js';
import { createCollector } from '../tracker/collector.js';
import type { CollectorOptions } from '../tracker/types.js';
import './register-runtime.js';

export interface EngineSources {
  /** Mock API options (`createMockApi`) or a ready engine. */
  mock?: MockApiOptions | Engine | null;
  /** Collector options (`createCollector`), `true` for its defaults (appId `mockyard`), or a ready engine. */
  tracker?: CollectorOptions | Engine | boolean | null;
  /** More engines, tried after the mock API. */
  engines?: readonly Engine[];
}

export interface ResolvedEngines {
  engines: Engine[];
  /** The engines created here (the host closes them). */
  owned: Engine[];
}

/**
 * The engines for `sources`. Engines created from options inherit the host's logger unless their
 * options name one. If creating one fails, the ones already created are closed.
 */
export async function resolveEngines(sources: EngineSources, sink?: LoggerSink): Promise<ResolvedEngines> {
  const engines: Engine[] = [];
  const owned: Engine[] = [];
  const { mock, tracker } = sources;
  const withSink = <T extends { logger?: unknown }>(o: T): T => (sink && o.logger === undefined ? { ...o, logger: sink } : o);
  try {
    if (tracker !== undefined && tracker !== null && tracker !== false) {
      if (isEngine(tracker)) engines.push(tracker);
      else if (tracker === true || (typeof tracker === 'object' && !Array.isArray(tracker))) {
        const collector = createCollector(withSink(tracker === true ? { appId: 'mockyard' } : (tracker as CollectorOptions)));
        engines.push(collector);
        owned.push(collector);
      } else throw new OptionsError('tracker', 'must be collector options, true, or an engine');
    }
    if (mock !== undefined && mock !== null) {
      if (isEngine(mock)) engines.push(mock);
      else if (typeof mock === 'object' && !Array.isArray(mock)) {
        const api = createMockApi(withSink(mock));
        engines.push(api);
        owned.push(api);
      } else throw new OptionsError('mock', 'must be mock API options or an engine');
    }
  } catch (err) {
    await Promise.allSettled(owned.map((e) => e.close?.()));
    throw err;
  }
  for (const e of sources.engines ?? []) {
    if (!isEngine(e)) throw new OptionsError('engines', 'must hold engines (objects with a handle(request) method and a prefixes array)');
    engines.push(e);
  }
  return { engines, owned };
}
