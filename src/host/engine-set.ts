/**
 * THE engine assembly every host uses (node:http `serve`, connect/Vite middleware, the CLI, the
 * MSW worker's `startWorker`): host options (`tracker`, `mock`, `engines`) → the ordered engine
 * list, which of them the host owns, and how they are closed.
 *
 * The collector is journaled: the mock API's request journal also records the requests it
 * answers (src/devtools/journaled-engine.ts).
 * Order: the devtools admin API (`/_mockyard/api`, only when the guard allows it:
 * src/devtools/guard.ts), the collector (it lives under one fixed base path), then the mock API (whose
 * prefix may be broad), then any extra engines. Ownership: engines created here from options are
 * owned (closed by `close()`); ready-made engines are used as given and stay the caller's.
 * If creating one fails, those already created are closed before the error is thrown.
 * Host-neutral: each host passes its own factories (the node host adds its logger and the disk
 * default; the page requires `mock.fs` and a plain-JSON collector).
 */
import { isEngine, type Engine } from '../core/engine.js';
import { isMockApi } from '../engine/is-mock-api.js';
import { isCollector } from '../tracker/is-collector.js';
import { OptionsError } from '../core/options.js';
import { createAdminEngine, devtoolsOffEngine } from '../devtools/admin-engine.js';
import { resolveDevtoolsGuard, type DevtoolsOption, type ServerNames } from '../devtools/guard.js';
import type { Journal } from '../devtools/journal.js';
import { journaled } from '../devtools/journaled-engine.js';
import { journalFor } from './journal.js';

export interface EngineSources<M, T> {
  /** Mock API options or a ready engine. */
  mock?: M | Engine | null;
  /** Collector options, `true` for the defaults, or a ready engine (`false`/null: none). */
  tracker?: T | Engine | boolean | null;
  /** More engines, tried after the mock API (never owned). */
  engines?: readonly Engine[];
  /**
   * The devtools admin API (`/_mockyard/api/`): on by default only on a local host (a node host
   * listening on loopback, the browser); elsewhere `{ token }` turns it on; `false` off.
   */
  devtools?: DevtoolsOption;
  /**
   * The host's own view of each engine it serves (the CLI: its request log and home page), called
   * once per engine after the journal is attached; returns the engine to serve in its place.
   */
  decorate?: (engine: Engine, role: EngineRole) => Engine;
}

/** What an engine is to the host that serves it. */
export type EngineRole = 'devtools' | 'tracker' | 'mock' | 'extra';

export interface EngineFactories<M, T> {
  mock(options: M): Engine;
  tracker(options: T): Engine;
  /** Collector options for `tracker: true`. */
  trackerDefaults: T;
  /**
   * True when only this machine can reach the host (node: listening on loopback; the page):
   * devtools are then on by default. Hosts that cannot tell leave it out (off unless a token).
   */
  local?: boolean;
  /** Where a node host is reached (its Host rule for the devtools, guard.ts); the page leaves it out. */
  server?: ServerNames;
}

export interface EngineSet {
  /** In the order hosts try them. */
  readonly engines: Engine[];
  /** The engines created here (closed by `close()`). */
  readonly owned: Engine[];
  readonly mock: Engine | undefined;
  readonly tracker: Engine | undefined;
  /** The devtools admin API, when on. */
  readonly devtools: Engine | undefined;
  /** The request journal (the mock API's requests and the collector's), or null. */
  readonly journal: Journal | null;
  /** Closes the owned engines (all of them, even if one fails); once. */
  close(): Promise<void>;
}

const isOptions = (v: unknown): v is object => typeof v === 'object' && v !== null && !Array.isArray(v);

async function closeAll(engines: readonly Engine[]): Promise<void> {
  await Promise.allSettled(engines.map((e) => e.close?.()));
}

export async function assembleEngines<M extends object, T extends object>(sources: EngineSources<M, T>, factories: EngineFactories<M, T>): Promise<EngineSet> {
  const { mock, tracker } = sources;
  const extra = sources.engines ?? [];
  for (const e of extra) {
    if (!isEngine(e)) throw new OptionsError('engines', 'must hold engines (objects with a handle(request) method and a prefixes array)');
  }
  const guard = resolveDevtoolsGuard(sources.devtools, factories.local === true, 'devtools', factories.server);
  const owned: Engine[] = [];
  let trackerEngine: Engine | undefined;
  let mockEngine: Engine | undefined;
  try {
    if (tracker !== undefined && tracker !== null && tracker !== false) {
      if (isEngine(tracker)) trackerEngine = tracker;
      else if (tracker === true || isOptions(tracker)) {
        trackerEngine = factories.tracker(tracker === true ? factories.trackerDefaults : (tracker as T));
        owned.push(trackerEngine);
      } else throw new OptionsError('tracker', 'must be collector options, true, or an engine');
    }
    if (mock !== undefined && mock !== null) {
      if (isEngine(mock)) mockEngine = mock;
      else if (isOptions(mock)) {
        mockEngine = factories.mock(mock as M);
        owned.push(mockEngine);
      } else throw new OptionsError('mock', 'must be mock API options or an engine');
    }
  } catch (err) {
    await closeAll(owned);
    throw err;
  }
  // Ready-made engines passed as `engines` (the CLI's) count too.
  const mockLike = mockEngine ?? extra.find(isMockApi);
  const trackerLike = trackerEngine ?? extra.find(isCollector);
  // The mock API's requests go into the journal through its observer hook (journal.ts); the
  // collector's through journaled() (src/devtools/journaled-engine.ts). With no mock API (or
  // `journal: false`) there is no journal.
  let journal: Journal | null;
  try {
    journal = journalFor(mockLike);
  } catch (err) {
    await closeAll(owned);
    throw err;
  }
  const hosted = (e: Engine) => (journal && e === trackerLike ? journaled(e, journal, 'collector') : e);
  let devtools: Engine | undefined;
  if (guard.enabled) {
    devtools = createAdminEngine({ mock: mockLike, tracker: trackerLike, journal, guard });
    owned.push(devtools);
  }
  const decorate = sources.decorate ?? ((e: Engine) => e);
  const engines: Engine[] = [];
  if (devtools) engines.push(decorate(devtools, 'devtools'));
  // A node host says why its devtools are off (JSON), rather than letting the path fall through.
  else if (factories.server) engines.push(devtoolsOffEngine(sources.devtools === false));
  if (trackerEngine) engines.push(decorate(hosted(trackerEngine), 'tracker'));
  if (mockEngine) engines.push(decorate(mockEngine, 'mock'));
  engines.push(...extra.map((e) => decorate(hosted(e), 'extra')));
  let closing: Promise<void> | undefined;
  return {
    engines,
    owned,
    mock: mockEngine,
    tracker: trackerEngine,
    devtools,
    journal,
    close: () => (closing ??= closeAll(owned)),
  };
}
