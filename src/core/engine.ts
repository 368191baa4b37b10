/**
 * What a host needs from an engine. Both the mock API and the collector implement it; hosts
 * (node:http, the MSW worker, dev-server middleware) try engines in order and use the first
 * answer that is not `undefined`.
 */
import type { UpgradeResult } from './socket.js';

export interface Engine {
  /** The engine's answer, or `undefined` when the request is not for it (the host forwards it). */
  handle(request: Request): Promise<Response | undefined>;
  /**
   * Optional: the answer when the engine has it at once (a cached file, a synchronous handler),
   * else `undefined` (then `handle` decides, as always). A host may call it before `handle` to
   * skip a promise round trip on its hot path; whatever it returns, `handle` would have returned
   * too. After `undefined` the host must call `handle` with the same Request: the engine may have
   * started work there (a handler whose answer comes later) that `handle` finishes. Never throws.
   */
  handleCached?(request: Request): Response | undefined;
  /** WebSocket handshakes; see socket.ts. Engines without WebSocket support omit it. */
  upgrade?(request: Request): Promise<UpgradeResult> | UpgradeResult;
  /** URL path prefixes this engine answers under (hosts use them to route and to intercept). */
  readonly prefixes: readonly string[];
  /**
   * Optional: true when what the engine does not answer under its prefixes is meant for whoever
   * comes next (the mock API's `noHandledRestFsRequestsAction: 'forward'`). Embedded hosts then
   * leave an unclaimed WebSocket upgrade under those prefixes to the server's other 'upgrade'
   * listeners instead of answering 404.
   */
  readonly forwardsUnmatched?: boolean;
  /**
   * Optional: what the engine is, for a host that treats some engines apart (the mock API is
   * `'mock-api'`, the collector `'collector'`: engine/is-mock-api.ts and tracker/is-collector.ts
   * are the one test of each). A wrapper made with `Object.create(engine)` keeps it.
   */
  readonly kind?: string;
  /** Releases timers, sockets and file handles. */
  close?(): Promise<void>;
}

/** Whether `value` meets the Engine contract (hosts route by `prefixes`, so it is required). */
export function isEngine(value: unknown): value is Engine {
  return typeof value === 'object' && value !== null && typeof (value as Engine).handle === 'function' && Array.isArray((value as Engine).prefixes);
}

/**
 * The routing rule for `prefixes`, used by every engine and host: `/api` covers `/api`, `/api/`
 * and `/api/users`, never `/apix`; `''` and `/` cover every path. Paths are compared as sent
 * (percent-encoded).
 */
export function underPrefix(pathname: string, prefix: string): boolean {
  if (!pathname.startsWith(prefix)) return false;
  return pathname.length === prefix.length || pathname.charCodeAt(prefix.length) === 47 /* / */ || prefix === '' || prefix.endsWith('/');
}
