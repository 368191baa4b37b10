/**
 * What the engine shares with its layers (handler layer, WebSocket layer, file-system mode).
 * Built once per engine by create-mock-api.ts.
 */
import type { KeyedQueue } from '../core/keyed-queue.js';
import type { Logger } from '../core/logger.js';
import type { Vfs } from '../vfs/types.js';
import type { RequestContext } from './context.js';
import type { FilterConfig, MockApiApp, PaginationConfig, PerMethod } from './types.js';

/** Per-call overrides for file-system mode (a handler with `handle: 'FS'`). */
export interface FsServeOverrides {
  pagination?: PerMethod<PaginationConfig> | null;
  filters?: PerMethod<FilterConfig> | null;
  /** Path below the prefix to serve instead of `ctx.subPath` (after a handler's `rewrite`); encoded like a URL path. */
  path?: string;
  /** An already-read request body (the handler layer may have consumed the stream). */
  body?: Uint8Array;
}

export interface EngineServices {
  readonly logger: Logger;
  /** The filesystem the engine serves from (`fs` option or the default), or null when none. */
  readonly vfs: Vfs | null;
  /** `app` object handed to handlers (`req.app.ws.broadcast`, `req.app.fs`). */
  readonly app: MockApiApp;
  /** Per-key serialised tasks (read-modify-write of one file). */
  readonly queue: KeyedQueue;
  /** Whether file routing is on (fsDir set and present). Resolves once at start-up. */
  fsEnabled(): Promise<boolean>;
  /**
   * Serves the request from file-system mode, WITHOUT the global delay (the caller applies its
   * own). Answers 404 JSON when file routing is off or nothing matches.
   */
  serveFs(ctx: RequestContext, overrides?: FsServeOverrides): Promise<Response>;
  /** A sleep that never keeps the process alive after `close()` (resolves at once once closed). */
  sleep(ms: number): Promise<void>;
  /** True once `close()` was called. */
  readonly closed: boolean;
}
