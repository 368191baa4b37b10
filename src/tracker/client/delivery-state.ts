/**
 * The states of the tracker client's delivery (client.ts) and every move between them, in one
 * table. `stats().state` is the state's name.
 *
 *   running   sending: one batch at a time, oldest first, while the transport is ready
 *   backoff   an HTTP send failed for a reason that may pass; sending resumes when the timer
 *             fires, at once on `flush()` (WebSocket mode never backs off: its fixed 3 s
 *             reconnect paces the retries)
 *   offline   the WebSocket is down, or its transport still loading; its (re)connect resumes
 *   stopped   the collector refused the key (401/403, close 1008); `resume()` / `setApiKey()`
 *   closed    `stop()` was called: nothing is sent any more, whatever happens next
 *
 * Events: `sendFailed` (HTTP: 5xx, network, timeout, 408/429), `backoffOver` (its timer fired),
 * `flush`, `refused` (the key), `connected` / `disconnected` (the WebSocket), `resume`, `stop`.
 * `resume` goes to running when the transport is ready, else offline (`{ ready, notReady }`).
 * A pair not in the table is refused: `deliveryMove` throws (a bug in the client). running +
 * `connected` is accepted though no way through the client reaches it today (a running WebSocket
 * client is connected; a new connection comes only after `disconnected`): a late report of the
 * transport must never throw.
 *
 * Who drives them: the application (`flush()`, `resume()`, `setApiKey()`, `stop()`); the
 * transport's answers (HTTP: a send that may be retried is `sendFailed`, 401/403 `refused`; the
 * WebSocket: open and authenticated `connected`, lost `disconnected`, closed with 1008 `refused`);
 * the backoff timer (`backoffOver`). The client changes state only through `on(event)` in
 * client.ts. Tested by state: test/tracker/client/delivery-state.test.ts (every pair through a
 * real client and a real collector on 127.0.0.1).
 */
import type { TrackerState } from './types.js';

export type DeliveryEvent = 'sendFailed' | 'backoffOver' | 'flush' | 'refused' | 'connected' | 'disconnected' | 'resume' | 'stop';

type Target = TrackerState | { ready: TrackerState; notReady: TrackerState };

const CLOSED = { sendFailed: 'closed', backoffOver: 'closed', flush: 'closed', refused: 'closed', connected: 'closed', disconnected: 'closed', resume: 'closed', stop: 'closed' } as const;

export const DELIVERY_MOVES: { readonly [S in TrackerState]: { readonly [E in DeliveryEvent]?: Target } } = {
  running: { sendFailed: 'backoff', flush: 'running', refused: 'stopped', connected: 'running', disconnected: 'offline', resume: 'running', stop: 'closed' },
  backoff: { backoffOver: 'running', flush: 'running', resume: 'backoff', stop: 'closed' },
  offline: { flush: 'offline', refused: 'stopped', connected: 'running', disconnected: 'offline', resume: 'offline', stop: 'closed' },
  stopped: { flush: 'stopped', refused: 'stopped', resume: { ready: 'running', notReady: 'offline' }, stop: 'closed' },
  closed: CLOSED,
};

/** Whether the unload beacon may carry the queue in a state (not once the key was refused or the client stopped). */
export const BEACONS: { readonly [S in TrackerState]: boolean } = { running: true, backoff: true, offline: true, stopped: false, closed: false };

/** Where `event` takes delivery from `from` (`ready`: the transport can send); throws when refused. */
export function deliveryMove(from: TrackerState, event: DeliveryEvent, ready: boolean): TrackerState {
  const to = DELIVERY_MOVES[from][event];
  if (to === undefined) throw new Error(`tracker client: '${event}' is refused in state '${from}'`);
  return typeof to === 'string' ? to : ready ? to.ready : to.notReady;
}
