/**
 * Which requests the msw hosts (the worker host, `handlersFor`) take: URLs under an engine's
 * prefix, on one origin (the page's, for the worker host) or on any origin (`origin` undefined:
 * `handlersFor` in Node, where requests carry absolute URLs to wherever the app's API lives).
 * Anything else goes on untouched. One route per prefix, in engine order (the collector first,
 * then the mock API). The shapes here are msw-neutral; handlers.ts turns them into msw handlers.
 */
import { connectionFaultOf, throttledResponse, untilAborted } from '../core/connection-fault.js';
import { underPrefix, type Engine } from '../core/engine.js';
import { hostFor, type Host } from '../host/create-host.js';
import { toPageResponse } from '../host/page-response.js';

export interface HttpRoute {
  /** Cheap test on a request's (normalised, absolute) URL: origin + path prefix. */
  test(href: string): boolean;
  /** The answer, or `undefined` when no engine answers. */
  handle(request: Request): Promise<Response | undefined>;
  /**
   * An engine of this route may leave a request under its prefix unanswered on purpose
   * (`noHandledRestFsRequestsAction: 'forward'`): whether it answers is known only by asking it.
   */
  readonly forwards: boolean;
}

/** A page WebSocket as the host sees it (msw's client connection, reduced). */
export interface PageSocket {
  readonly url: URL;
  /** `'blob'` or `'arraybuffer'`: how the page wants binary frames. */
  readonly binaryType: BinaryType;
  send(data: string | ArrayBuffer | Blob): void;
  close(code?: number, reason?: string): void;
  onMessage(listener: (data: string | ArrayBuffer | ArrayBufferView | Blob) => void): void;
  onClose(listener: (code: number, reason: string) => void): void;
}

export interface SocketRoute {
  /** The socket URLs this route may claim (msw intercepts only these; others are never touched). */
  readonly pattern: RegExp;
  test(url: URL): boolean;
  /**
   * Called synchronously for every matching connection (so message listeners are attached before
   * any frame arrives). Resolve `'passthrough'` to connect the page to the real server instead.
   * msw opens the mocked socket right away, so a page may see `open` before the decision.
   */
  connect(socket: PageSocket): void | 'passthrough' | Promise<void | 'passthrough'>;
}

export function httpRoutes(engines: Host | readonly Engine[], origin: string | undefined): HttpRoute[] {
  const host = hostFor(engines, 'httpRoutes');
  const routes: HttpRoute[] = [];
  const seen = new Set<string>();
  for (const engine of host.engines) {
    for (const prefix of engine.prefixes) {
      if (seen.has(prefix)) continue;
      seen.add(prefix);
      routes.push({
        forwards: host.engines.some((e) => e.forwardsUnmatched === true),
        test(href) {
          const [at, pathname] = splitHref(href);
          return (origin === undefined || href.slice(0, at) === origin) && underPrefix(pathname, prefix);
        },
        async handle(request) {
          // The host's dispatch, as on the node host: engines in order, the first answer that is not `undefined`.
          const response = await host.answer(request, splitHref(request.url)[1]);
          if (response === undefined) return undefined;
          // A connection fault (core/connection-fault.ts) is the platform's network error here
          // (after the client gives up, for no-answer), or a throttled body.
          const fault = connectionFaultOf(request);
          if (fault === undefined) return toPageResponse(response, request.signal);
          if (fault.type === 'slow-body') return throttledResponse(toPageResponse(response, request.signal), fault.bytesPerSecond ?? 1024);
          response.body?.cancel().catch(() => {}); // never read: a stream behind it ends
          if (fault.type === 'no-answer') await untilAborted(request.signal);
          return Response.error();
        },
      });
    }
  }
  return routes;
}

/**
 * Where the path of a normalised absolute URL (a Request's `url`) starts, and the path itself,
 * without `new URL()` (hot path: every request msw sees goes through each route's test).
 */
function splitHref(href: string): [number, string] {
  const scheme = href.indexOf('://');
  let at = scheme === -1 ? -1 : href.indexOf('/', scheme + 3);
  if (at === -1) at = href.length;
  let end = href.length;
  const q = href.indexOf('?', at);
  if (q !== -1) end = q;
  const hash = href.indexOf('#', at);
  if (hash !== -1 && hash < end) end = hash;
  return [at, href.slice(at, end) || '/'];
}
