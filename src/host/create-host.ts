/**
 * `createHost(config)`: THE host every runtime adapter uses: assembly (engine-set.ts: order,
 * ownership, closing, devtools, journal), the one dispatch loop (dispatch.ts) and the runtime
 * object (runtime.ts) in one value:
 *
 *   const host = await createHost({ mock: { endpointPrefix: '/api', fs: memoryFs(tree) } });
 *   export default { fetch: host.fetch };            // Deno, Bun, Workers-style runtimes
 *
 * `fetch(request)` always answers (what no engine answered: `fallback`, else the JSON 404);
 * `handle(request)` answers `undefined` for what is not the engines' (middleware → `next()`, the
 * worker → the network); `answer(request, pathname)` is the node host's fast path (a Response at
 * once when an engine has it cached). A Host is itself an Engine (prefixes, handle, upgrade,
 * close), so anything that takes engines takes a host.
 * The node server and middleware (`nodeHost`, src/node/engines.ts), the worker (src/sw/), `interceptFetch`
 * (src/test/) and `handlersFor` (src/msw/) all dispatch through one; CORS is each engine's own
 * (`mock.cors`, `tracker.cors`; the devtools follow the mock API's).
 */
import { isEngine, type Engine } from '../core/engine.js';
import { errorResponse, responseForError } from '../core/errors.js';
import { splitUrl } from '../core/exchange.js';
import { toNativeResponse } from '../core/fast-response.js';
import type { LoggerSink } from '../core/logger.js';
import type { UpgradeResult } from '../core/socket.js';
import type { Journal } from '../devtools/journal.js';
import type { ServerNames } from '../devtools/guard.js';
import { createMockApi } from '../engine/create-mock-api.js';
import type { MockApiOptions } from '../engine/types.js';
import { createCollector } from '../tracker/collector.js';
import type { CollectorOptions } from '../tracker/types.js';
import { answerFrom, engineList, upgradeFrom } from './dispatch.js';
import { assembleEngines, type EngineSet, type EngineSources } from './engine-set.js';
import type { Runtime } from './runtime.js';

export type Fallback = (request: Request) => Response | undefined | Promise<Response | undefined>;

export interface HostConfig extends EngineSources<MockApiOptions, CollectorOptions> {
  /** What the platform provides (runtime.ts); default `{}`: the web-standard ways. */
  runtime?: Runtime;
  /** Only this machine can reach the host (a loopback listener, the page): devtools on by default. */
  local?: boolean;
  /** Where a node host is reached: the Host names its devtools answer (src/devtools/guard.ts). */
  server?: ServerNames;
  /** Where engines made from options log, unless their options name a logger. */
  logger?: LoggerSink;
  /** `fetch()`'s answer for what no engine answered, before the JSON 404. */
  fallback?: Fallback;
}

export interface Host extends Engine {
  /** The engines in the order they are asked. */
  readonly engines: readonly Engine[];
  readonly mock: Engine | undefined;
  readonly tracker: Engine | undefined;
  readonly devtools: Engine | undefined;
  /** The devtools request journal, or null. */
  readonly journal: Journal | null;
  /** Every engine's prefixes. */
  readonly prefixes: readonly string[];
  /** A standard fetch handler: always a (platform) Response. */
  fetch(request: Request): Promise<Response>;
  /** The engines' answer, or undefined when none answers. */
  handle(request: Request): Promise<Response | undefined>;
  /** The engines' answer for a request whose URL path is `pathname`: at once when one has it cached. */
  answer(request: Request, pathname: string): Response | undefined | Promise<Response | undefined>;
  /** The WebSocket handshake's answer (an accept function, a refusal Response, or undefined). */
  upgrade(request: Request): Promise<UpgradeResult>;
  /** Closes the engines the host created (ready-made ones stay the caller's); once. */
  close(): Promise<void>;
}

/** A host from `config`: its engines are created from options (and owned) or used as given. */
export async function createHost(config: HostConfig = {}): Promise<Host> {
  const runtime = config.runtime ?? {};
  const sink = config.logger;
  const withSink = <O extends { logger?: unknown }>(o: O): O => (sink && o.logger === undefined ? { ...o, logger: sink } : o);
  const set = await assembleEngines(config, {
    mock: (o) => createMockApi(withSink(runtime.mockOptions ? runtime.mockOptions(o) : o), runtime),
    tracker: (o) => createCollector(withSink(runtime.collectorOptions ? runtime.collectorOptions(o) : o), runtime),
    trackerDefaults: { appId: 'mockyard' },
    local: config.local === true,
    ...(config.server ? { server: config.server } : {}),
  });
  return hostOf(set, config.fallback);
}

/** A host over ready-made engines (never closed by it): the in-process hosts' dispatch. */
export function hostFor(engines: Engine | readonly Engine[], who: string): Host {
  if (isHost(engines)) return engines;
  const list = engineList(engines, who);
  return hostOf({ engines: [...list], owned: [], mock: undefined, tracker: undefined, devtools: undefined, journal: null, close: async () => {} }, undefined);
}

const kHost = Symbol.for('mockyard.host');

function isHost(value: unknown): value is Host {
  return typeof value === 'object' && value !== null && kHost in value;
}

function hostOf(set: EngineSet, fallback: Fallback | undefined): Host {
  const { engines } = set;
  const notFound = (request: Request, pathname: string) => errorResponse(404, 'Not Found', pathname, { head: request.method.toUpperCase() === 'HEAD' });
  const handle = (request: Request): Promise<Response | undefined> => {
    try {
      return Promise.resolve(answerFrom(engines, request, splitUrl(request.url)[0]));
    } catch (err) {
      return Promise.reject(err);
    }
  };
  const host: Host & { [kHost]: true } = {
    [kHost]: true,
    engines,
    mock: set.mock,
    tracker: set.tracker,
    devtools: set.devtools,
    journal: set.journal,
    prefixes: [...new Set(engines.flatMap((e) => e.prefixes))],
    answer: (request, pathname) => answerFrom(engines, request, pathname),
    handle,
    async fetch(request) {
      const pathname = splitUrl(request.url)[0];
      try {
        const response = (await answerFrom(engines, request, pathname)) ?? (fallback ? await fallback(request) : undefined) ?? notFound(request, pathname);
        return toNativeResponse(response);
      } catch (err) {
        return toNativeResponse(responseForError(err, pathname, request.method.toUpperCase() === 'HEAD'));
      }
    },
    upgrade: (request) => upgradeFrom(engines, request),
    close: () => set.close(),
  };
  return host;
}
