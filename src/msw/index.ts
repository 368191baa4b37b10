/**
 * `mockyard/msw`: mockyard's engines as msw request handlers, for apps that already run msw
 * (`setupServer` in tests, `setupWorker` in the browser). mockyard's file mode and the app's own
 * msw handlers then live side by side in one handler list.
 *
 *   import { setupServer } from 'msw/node';
 *   import { handlersFor } from 'mockyard/msw';
 *
 *   const server = setupServer(...myHandlers, ...handlersFor(api));
 *
 * One catch-all handler per prefix (in engine order), plus one WebSocket link when an engine
 * accepts WebSockets. A request no engine answers (`noHandledRestFsRequestsAction: 'forward'`)
 * goes on to the next handler; the mock API's default answers its own JSON 404 for anything under
 * its prefix, so put your own handlers for paths under it first. msw is a peer dependency (2.x
 * ≥ 2.15 or 3.x): the handlers are built with the app's msw. `startWorker` (mockyard/browser) stays the
 * one-call browser path.
 *
 * msw cannot resolve a relative URL where there is no `location` (vitest's node environment:
 * "Failed to parse URL"): call fetch with absolute URLs there, or use `interceptFetch`
 * (mockyard/test), which resolves them against its `baseUrl`.
 */
import type { Engine } from '../core/engine.js';
import { hostFor } from '../host/create-host.js';
import { check } from '../core/options.js';
import { httpHandler, socketHandler, type MswHttpHandler, type MswWebSocketHandler } from './handlers.js';
import { httpRoutes } from './routes.js';
import { socketRoute } from './sockets.js';
import { isMockApi } from '../engine/is-mock-api.js';

export type { MswHttpHandler, MswWebSocketHandler } from './handlers.js';

export interface HandlersForOptions {
  /**
   * Only requests to this origin are taken (e.g. `https://api.example.com`). Default: the page's
   * origin where there is a `location`, else any origin (Node: the path decides).
   */
  baseUrl?: string | URL;
}

const KNOWN = ['baseUrl'] as const;

function originOf(options: HandlersForOptions): string | undefined {
  if (options.baseUrl !== undefined) {
    try {
      return new URL(String(options.baseUrl)).origin;
    } catch {
      throw new TypeError(`handlersFor: baseUrl must be an absolute URL (got ${JSON.stringify(String(options.baseUrl))})`);
    }
  }
  const page = (globalThis as { location?: { origin?: string } }).location?.origin;
  return typeof page === 'string' && /^https?:/.test(page) ? page : undefined;
}

/** msw handlers answering from `engines` (one per prefix, plus a WebSocket link when needed). */
export function handlersFor(engines: Engine | readonly Engine[], options: HandlersForOptions = {}): Array<MswHttpHandler | MswWebSocketHandler> {
  const host = hostFor(engines, 'handlersFor');
  const list = host.engines;
  check.knownKeys(check.object(options, 'handlersFor') ?? {}, '', KNOWN);
  const origin = originOf(options);
  const handlers: Array<MswHttpHandler | MswWebSocketHandler> = httpRoutes(host, origin).map((route) => httpHandler(route, 'next'));
  // A mock API answers upgrades only with enableWs or GraphQL (subscriptions); the collector always has its socket.
  const sockets = socketRoute(list.filter((e) => !isMockApi(e) || e.options.enableWs !== false || !!e.options.graphql), origin);
  if (sockets) handlers.push(socketHandler([sockets]));
  return handlers;
}
