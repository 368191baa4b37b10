/**
 * `startWorker`: both engines inside the page, behind an MSW service worker (exported by
 * `mockyard/browser`).
 *
 *   const worker = await startWorker({
 *     mock: { endpointPrefix: '/api', fs: indexedDbFs('my-app', { seed }) },
 *     tracker: { appId: 'my-app' },
 *   });
 *
 * Requests under the engines' prefixes (same origin) are answered in the page; everything else
 * goes to the network untouched and silently. Nothing here imports Node built-ins.
 */
import type { Engine } from '../core/engine.js';
import { check } from '../core/options.js';
import type { MockApi } from '../engine/create-mock-api.js';
import type { MockApiOptions } from '../engine/mock-api-options.js';
import type { Collector, CollectorOptions } from '../tracker/types.js';
import type { Host } from '../host/create-host.js';
import { pageHost } from './engines.js';
import { rememberScenario } from './remembered-scenario.js';
import { isMockApi } from '../engine/is-mock-api.js';
import { checkWorkerScript, startMswHost, type MswRequestHandler } from './msw-adapter.js';
import { httpRoutes, type HttpRoute } from '../msw/routes.js';
import { socketRoute } from '../msw/sockets.js';

export interface StartWorkerOptions {
  /** Mock API options (as `createMockApi`; `fs` required in the browser) or a ready engine. */
  mock?: MockApiOptions | Engine | null;
  /** Collector options (as `createCollector`), `true` for its defaults (appId `mockyard`), or a ready engine. */
  tracker?: CollectorOptions | Engine | boolean | null;
  serviceWorker?: {
    /** URL of the worker script written by `mockyard init-worker` (default `/mockServiceWorker.js`). */
    url?: string;
  };
  /** No console output from MSW (default false). */
  quiet?: boolean;
  /** Devtools admin API at `/_mockyard/api/` (on by default in the page; `false` off; `{ token }`). */
  devtools?: boolean | { token?: string };
}

export interface PageWorker {
  /** The engines in use (e.g. `worker.mock.ws.broadcast(...)`); a ready engine is given back as is. */
  readonly mock: MockApi | undefined;
  readonly tracker: Collector | undefined;
  /**
   * Opens the devtools page over the app in this tab (src/sw/devtools-overlay.ts; also opened by
   * the URL hash `#_mockyard`). Rejects when devtools are off (`devtools: false`).
   */
  openDevtools(): Promise<{ close(): void }>;
  /**
   * Back to the start (`mock.reset()`): handlers added with `use` dropped, the base scenario,
   * and the data back to the seed files (indexedDbFs, memoryFs): what a "reset data" button does.
   */
  reset(): Promise<void>;
  /** Stops intercepting and closes the engines built by `startWorker`. */
  stop(): Promise<void>;
}

const KNOWN = ['mock', 'tracker', 'serviceWorker', 'quiet', 'devtools'] as const;

export async function startWorker(options: StartWorkerOptions = {}): Promise<PageWorker> {
  return (await startPageWorker(options)).worker;
}

/**
 * What a host built on the page worker (src/storybook/) steers besides the `PageWorker`; not part
 * of `mockyard/browser`.
 */
export interface PageWorkerControls {
  /** The session (docs/sessions.md) of every request that names none itself; undefined: none. */
  session: string | undefined;
  /** The host: engines, journal, devtools. */
  readonly host: Host;
  /** The app's own msw handlers, tried before mockyard's routes (msw's `worker.use`). */
  use(...handlers: MswRequestHandler[]): void;
  resetHandlers(): void;
}

/**
 * `startWorker`, and the controls a host on top of it uses. `entry`: the package entry the user
 * imported, which the errors name (`mockyard/browser`; `mockyard/storybook` for its own host).
 */
export async function startPageWorker(options: StartWorkerOptions = {}, entry = 'mockyard/browser'): Promise<{ worker: PageWorker; controls: PageWorkerControls }> {
  check.knownKeys(check.object(options, 'startWorker') ?? {}, '', KNOWN);
  const sw = check.object(options.serviceWorker, 'serviceWorker');
  if (sw) check.knownKeys(sw, 'serviceWorker', ['url']);
  const workerUrl = check.string(sw?.url, 'serviceWorker.url', '/mockServiceWorker.js', { nonEmpty: true })!;
  const quiet = check.boolean(options.quiet, 'quiet', false);
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) {
    throw new Error(`${entry}: service workers are not available here (a secure context — https or localhost — is required)`);
  }

  // Options first: a typo is reported at once, before any network round trip.
  const built = await pageHost({ mock: options.mock, tracker: options.tracker, devtools: options.devtools });
  const closeOwned = built.close;

  const stale = await checkWorkerScript(workerUrl);
  if (stale) {
    await closeOwned();
    throw new Error(
      `${entry}: the service worker script ${workerUrl} is ${stale}. ` +
        'Run `npx mockyard init-worker <publicDir>` (e.g. `npx mockyard init-worker public`) to write the one that matches this mockyard' +
        (workerUrl === '/mockServiceWorker.js' ? '' : ', or point startWorker({ serviceWorker: { url } }) at where it is served') +
        '.',
    );
  }

  // The scenario picked in this tab survives a reload (remembered-scenario.ts).
  const remembered = isMockApi(built.mock) ? rememberScenario(built.mock) : undefined;
  const controls: PageWorkerControls = { session: undefined, host: built, use() {}, resetHandlers() {} };
  const origin = location.origin;
  const sockets = socketRoute(built.engines, origin);
  // A mock API with WebSocket handlers loads its connection code lazily: startWorker waits for
  // it (alongside the worker's start), so a socket the page opens once startWorker has resolved
  // is accepted at once and a broadcast right after `open` reaches it.
  const mock = built.mock as Partial<MockApi> | undefined;
  const mockReady = mock?.options?.enableWs ? mock.ready?.() : undefined;
  let host;
  try {
    [host] = await Promise.all([
      startMswHost({ routes: httpRoutes(built, origin).map((route) => inSession(route, () => controls.session)), sockets: sockets ? [sockets] : [], workerUrl, quiet }),
      mockReady,
    ]);
  } catch (err) {
    await closeOwned();
    throw err;
  }

  const mswHost = host;
  controls.use = (...handlers) => mswHost.use(...handlers);
  controls.resetHandlers = () => mswHost.resetHandlers();

  let stopped = false;
  let overlay: Promise<{ close(): void }> | undefined;
  const openDevtools = () => {
    if (!built.devtools) return Promise.reject(new Error(`${entry}: devtools are off (startWorker({ devtools: false }))`));
    return (overlay ??= import('./devtools-overlay.js')
      .then((m) => m.openDevtoolsOverlay(built.engines, built.tracker, () => (overlay = undefined)))
      .catch((err: unknown) => {
        overlay = undefined;
        throw err;
      }));
  };
  const onHash = () => {
    if (location.hash === '#_mockyard') openDevtools().catch((err: unknown) => console.error(err));
  };
  if (built.devtools && typeof addEventListener === 'function') {
    addEventListener('hashchange', onHash);
    onHash();
  }
  const worker: PageWorker = {
    mock: built.mock as MockApi | undefined,
    tracker: built.tracker as Collector | undefined,
    openDevtools,
    async reset() {
      remembered?.forget();
      await (built.mock as Partial<MockApi> | undefined)?.reset?.();
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      removeEventListener('hashchange', onHash);
      (await overlay?.catch(() => undefined))?.close();
      host.stop();
      await closeOwned();
    },
  };
  return { worker, controls };
}

/**
 * A route whose requests belong to `session()` when they name no session of their own (the
 * header, cookie or `__session` parameter the engine reads, src/engine/selection/session.ts): the
 * header is added to a copy of the request, whose body and signal are the original's.
 */
function inSession(route: HttpRoute, session: () => string | undefined): HttpRoute {
  return {
    forwards: route.forwards,
    test: (href) => route.test(href),
    handle(request) {
      const id = session();
      if (id === undefined || request.headers.has('x-mockyard-session') || new URL(request.url).searchParams.has('__session')) return route.handle(request);
      const headers = new Headers(request.headers);
      headers.set('x-mockyard-session', id);
      return route.handle(new Request(request, { headers }));
    },
  };
}


