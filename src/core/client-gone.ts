/**
 * "Tell me when the client goes away", for work that outlives the start of a request (the
 * proxy's exchange with its target: dropped when nobody waits for its answer any more).
 *
 * The platform's way is `request.signal`. A host whose Request knows a cheaper way offers it
 * under `kWatchClient` (the node host: one 'close' listener on its ServerResponse, where a signal
 * would cost an AbortController and an EventTarget listener per request).
 */
export const kWatchClient = Symbol.for('mockyard.watchClient');

/** Stops watching (the work ended first). */
export type StopWatching = () => void;

const noop: StopWatching = () => {};

/** Calls `onGone` once if the client of `request` goes away before the returned function is called (at once if it is gone already). */
export function watchClient(request: Request, onGone: () => void): StopWatching {
  const hook = (request as unknown as Record<symbol, unknown>)[kWatchClient];
  if (typeof hook === 'function') return (hook as (onGone: () => void) => StopWatching).call(request, onGone);
  const signal = request.signal;
  if (signal.aborted) {
    onGone();
    return noop;
  }
  signal.addEventListener('abort', onGone, { once: true });
  return () => signal.removeEventListener('abort', onGone);
}
