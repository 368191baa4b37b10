/**
 * Connection faults (docs/sessions.md "Faults"): what the mock API asks a host to do to the
 * connection instead of answering normally, as WireMock's faults do. The engine stays
 * `Request → Response`: it marks the Request (`markConnectionFault`), and the host reads the mark
 * (`connectionFaultOf`) before writing the answer:
 *
 *   connection-reset  the connection is reset before any byte of the answer (ECONNRESET)
 *   truncated-body    the status and headers are sent (Content-Length the full size), then part
 *                     of the body, then the connection is closed
 *   malformed-chunk   the headers are sent with Transfer-Encoding: chunked, then a chunk that is
 *                     not valid chunked framing, then the connection is closed
 *   slow-body         the answer is sent at `bytesPerSecond` (the only fault that completes)
 *   no-answer         nothing is sent until the client gives up (its timeout or abort)
 *
 * The node host (src/node/connection-fault.ts) does exactly that on the socket. Hosts without a
 * socket (the page's service worker, interceptFetch) turn every fault but `slow-body` into the
 * platform's network error (`TypeError: Failed to fetch`; `no-answer` waits for the request's
 * abort first) and `slow-body` into a throttled body stream (`throttledResponse`).
 */
import { startTimer } from './timers.js';

export type ConnectionFaultType = 'connection-reset' | 'truncated-body' | 'malformed-chunk' | 'slow-body' | 'no-answer';

export const CONNECTION_FAULT_TYPES: readonly ConnectionFaultType[] = ['connection-reset', 'truncated-body', 'malformed-chunk', 'slow-body', 'no-answer'];

export interface ConnectionFault {
  readonly type: ConnectionFaultType;
  /** slow-body: the pace of the body. */
  readonly bytesPerSecond?: number;
}

/** Where the mark lives on the Request (a registered symbol: the same across bundles). */
export const kConnectionFault = Symbol.for('mockyard.connectionFault');

export function markConnectionFault(request: Request, fault: ConnectionFault): void {
  (request as unknown as Record<symbol, unknown>)[kConnectionFault] = fault;
}

/** The fault the engine asked for on this request, or undefined. */
export function connectionFaultOf(request: Request): ConnectionFault | undefined {
  return (request as unknown as Record<symbol, unknown>)[kConnectionFault] as ConnectionFault | undefined;
}

/** The platform's network error, as fetch rejects with it when the connection fails. */
export function networkError(): TypeError {
  return new TypeError('Failed to fetch');
}

/** Resolves when `signal` aborts (never when there is none). */
export function untilAborted(signal: AbortSignal | undefined): Promise<unknown> {
  return new Promise((resolve) => {
    if (!signal) return;
    if (signal.aborted) resolve(signal.reason);
    else signal.addEventListener('abort', () => resolve(signal.reason), { once: true });
  });
}

/** The same answer with its body sent at `bytesPerSecond` (chunks every 100 ms), for hosts without a socket. */
export function throttledResponse(response: Response, bytesPerSecond: number): Response {
  const source = response.body;
  if (source === null) return response;
  const perTick = Math.max(1, Math.floor(bytesPerSecond / 10));
  const reader = source.getReader();
  let pending: Uint8Array | undefined;
  let cancelTimer: (() => void) | undefined;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (pending === undefined || pending.byteLength === 0) {
        const { done, value } = await reader.read();
        if (done) {
          controller.close();
          return;
        }
        pending = value;
      }
      const piece = pending.subarray(0, perTick);
      pending = pending.subarray(piece.byteLength);
      await new Promise<void>((resolve) => {
        cancelTimer = startTimer(resolve, 100);
      });
      controller.enqueue(piece);
    },
    cancel(reason) {
      cancelTimer?.();
      return reader.cancel(reason);
    },
  });
  const headers = new Headers(response.headers);
  return new Response(body, { status: response.status, statusText: response.statusText, headers });
}
