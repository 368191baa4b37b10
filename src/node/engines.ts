/**
 * The node hosts' engines (`serve`, middleware, Vite plugin, CLI) from host options, through the
 * one engine assembly (host/engine-set.ts). Engines created from options inherit the host's
 * logger unless their options name one; the mock API gets the disk default (register-runtime).
 */
import { assembleEngines, type EngineSet, type EngineSources as Sources } from '../host/engine-set.js';
import type { LoggerSink } from '../core/logger.js';
import { createMockApi } from '../engine/create-mock-api.js';
import type { MockApiOptions } from '../engine/types.js';
import { createCollector } from '../tracker/collector.js';
import type { CollectorOptions } from '../tracker/types.js';
import './register-runtime.js';

/** `mock`: mock API options or a ready engine; `tracker`: collector options, `true` (appId `mockyard`) or an engine; `engines`: more engines, tried after the mock API. */
export type EngineSources = Sources<MockApiOptions, CollectorOptions>;

export type ResolvedEngines = EngineSet;

/** `local`: the host listens on loopback only (devtools on by default; src/devtools/guard.ts). */
export function resolveEngines(sources: EngineSources, sink?: LoggerSink, local = false): Promise<ResolvedEngines> {
  const withSink = <O extends { logger?: unknown }>(o: O): O => (sink && o.logger === undefined ? { ...o, logger: sink } : o);
  return assembleEngines(sources, {
    mock: (o) => createMockApi(withSink(o)),
    tracker: (o) => createCollector(withSink(o)),
    trackerDefaults: { appId: 'mockyard' },
    local,
  });
}
