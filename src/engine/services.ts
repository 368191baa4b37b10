/**
 * What the engine shares with its layers (handler layer, files layers, WebSocket layer).
 * Built once per engine by create-mock-api.ts; every pipeline built from the engine's parts
 * shares it.
 */
import type { OverrideList } from './handler-api/override-list.js';
import type { KeyedQueue } from '../core/keyed-queue.js';
import type { Logger } from '../core/logger.js';
import type { MockApiRuntime } from './runtime.js';
import type { Layer } from './pipeline/layer.js';
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
  /** `app` object handed to handlers (`req.app.ws.broadcast`, `req.app.fs`). */
  readonly app: MockApiApp;
  /** Per-key serialised tasks (read-modify-write of one file). */
  readonly queue: KeyedQueue;
  /** A sleep that never keeps the process alive after `close()` (resolves at once once closed). */
  sleep(ms: number): Promise<void>;
  /** True once `close()` was called. */
  readonly closed: boolean;
  /** Handlers added at run time (`api.use`), first in every pipeline built with these services. */
  readonly overrides?: OverrideList;
  /** What the runtime provides (runtime.ts): default filesystems, the proxy's transport. */
  readonly runtime: MockApiRuntime;
  /**
   * The webhooks surface's layer (webhooks/layer.ts), made once per engine by the assembly (one
   * delivery queue, one store listener): it heads every pipeline when something fires on
   * requests; undefined otherwise.
   */
  readonly webhooksLayer: Layer | undefined;
}
