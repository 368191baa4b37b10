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
 *
 * The host in detail (the folder's map; ARCHITECTURE.md gives the floors):
 * One host for every runtime: `createHost(config) → Host`, where `config` is `{ mock, tracker,
 * engines, devtools, runtime, local, logger, decorate, fallback }` and a `Host` is itself an Engine
 * plus `fetch(request)` (always a platform Response: the engines' answer, else `fallback`, else the
 * JSON 404), `handle` (undefined when no engine answers), `answer(request, pathname)` (a Response at
 * once when an engine has it cached, else a promise), `upgrade`, `engines`, `mock`, `tracker`,
 * `devtools`, `journal`, `close()`.
 * - **Assembly** (engine-set.ts): the devtools admin API first (when the guard allows: `local` —
 *   node host on loopback, the page — or `devtools: { token }`), then the collector, then the mock
 *   API, then extra `engines`; engines made from options are owned and closed by `host.close()`,
 *   ready engines stay the caller's; if making one fails, those made are closed before the error.
 *   The journal (journal.ts) is attached to the mock API through its `observe` hook and wraps the
 *   collector (devtools/journaled-engine.ts). `decorate(engine, role)` lets a host put its own view
 *   in front of an engine once (the CLI's request log and home page) without a second assembly.
 * - **Dispatch** (dispatch.ts): THE loop — only engines whose prefixes cover the path are asked, in
 *   order, first answer wins; a single candidate's `handleCached` first. Upgrades ask the engines covering the path
 *   with `upgrade`, in order.
 * - **Runtime** (runtime.ts): one explicit object of what the platform provides — `defaultFs` and
 *   `scratchFs` (filesystem factories), `upstream` (the proxy transport), `openApiDocument` (reads a
 *   document given by path), `postgresStore` and `spool` (the collector's database store and its
 *   ingest spool), the codecs
 *   `inflate` / `deflateRaw` / `crc32`, and `mockOptions` / `collectorOptions` (how the runtime adjusts
 *   engine options). Every part reaches each engine the host creates, and nothing else
 *   (`createMockApi(o, runtime)` → services.runtime; `createCollector(o, runtime)`); no module holds
 *   a runtime's part, so hosts on different runtimes share a process without touching each other.
 *   The codecs (drop-in implementations of a byte format) are passed down as arguments: `inflate`
 *   from services.runtime to the bodies' readers (`readDecodedBody(request, limit, inflate)`: the
 *   files layer's env, the handler layer, the HAR layer; the collector's ingest), `deflateRaw` /
 *   `crc32` as a `GzipCodecs` value to the collector's read encoders (tracker/gzip-pieces.ts);
 *   without them DecompressionStream, fflate and a CRC table. `{}` is the web-standard runtime. Node's is
 *   `src/node/runtime.ts` (a value: importing it registers nothing); the page's is `pageRuntime` in
 *   `src/sw/engines.ts`. The `mockyard` entry under Node exports createMockApi/createCollector bound
 *   to Node's runtime (index.node.ts → node/engines.ts).
 * - **Adapters** (each only translates its platform's request/response/socket):
 *   node `serve` / `createMiddleware` / Vite plugin (`nodeHost` in src/node/engines.ts;
 *   request-handler.ts writes FastResponses directly, the `answer` fast path keeps a cached GET
 *   synchronous; upgrade.ts binds `host.upgrade` to `ws`); the CLI (one `nodeHost` with `decorate`,
 *   then `serveHost`); the MSW worker (`pageHost` + msw/routes.ts); `interceptFetch` and
 *   `handlersFor` (`hostFor(engines)`: a host over ready engines); `mockyard/fetch`
 *   (src/fetch/index.ts, 56 lines: `createHost` on `{}` as `{ fetch }`).
 * The node host answers with `serve({ fallback })` what no engine did (the CLI's home page and
 * logged 404s) before its JSON 404: a fallback is not a routing engine, so a path one engine claims
 * keeps its fast path.
 *
 * The folder's rooms: create-host.ts (createHost,
 * hostFor), dispatch.ts (THE dispatch loop), engine-set.ts (assembly: order,
 * ownership, closing, devtools), journal.ts (the devtools journal attached through
 * `observe`), runtime.ts (THE runtime object), page-response.ts (an engine answer as a
 * page receives it: msw, sw, test), intercept-route.ts (the route every in-process
 * interception of interceptFetch takes: XMLHttpRequest, node:http)
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
import type { MockApiOptions } from '../engine/mock-api-options.js';
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
