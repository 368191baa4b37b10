/** What a transport (HTTP fetch, WebSocket) tells the delivery loop about one batch. */
import type { Batch } from './batch-queue.js';

export type SendResult =
  /** Acknowledged: stored (or already stored under this batchId). */
  | { kind: 'ok' }
  /** Refused as it is (400/413/422, a WebSocket `error`): split it, isolate the bad event. `index`: the event the collector named. */
  | { kind: 'reject'; status: number; message: string; index?: number }
  /** 401/403 or WebSocket close 1008: stop sending, keep the queue. */
  | { kind: 'auth'; status: number; message: string }
  /** May pass (5xx, network, timeout, 408/429): the same batch again after a backoff. */
  | { kind: 'retry'; message: string; retryAfterMs?: number; misconfigured?: boolean };

export interface Transport {
  /** False while it cannot send (a WebSocket down or not yet authenticated). */
  readonly ready: boolean;
  /** Keepalive body bytes in flight (they count against the page's 64 KiB budget). */
  readonly keepaliveInFlight: number;
  send(batch: Batch): Promise<SendResult>;
  /** Connection-based transports (WebSocket): connect now instead of at the next reconnect. */
  reconnectNow?(): void;
  close(): void;
}

/** The collector's JSON error body → its message and the failing event's index (422). */
export function describeError(body: unknown, fallback: string): { message: string; index?: number } {
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const b = body as Record<string, unknown>;
    const message = typeof b.message === 'string' ? b.message : typeof b.error === 'string' ? b.error : fallback;
    const index = typeof b.index === 'number' && Number.isInteger(b.index) ? b.index : undefined;
    return index === undefined ? { message } : { message, index };
  }
  return { message: fallback };
}
