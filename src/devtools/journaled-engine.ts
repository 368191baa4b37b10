/**
 * Other engines' requests in the mock API's request journal (the journal holds every
 * request the engines saw). The host assembly (src/host/engine-set.ts) wraps the collector with
 * `journaled(collector, journal, 'collector')` (src/core/observed-engine.ts): each request it
 * answers is recorded as the mock API's own are (`journal.record`: the same redaction —
 * `X-Tracker-Key` → `[redacted]` —, body limit, filters and live stream), with
 * `answeredBy: { layer: 'collector', detail: <path under its base, e.g. "/events"> }`.
 * Host-neutral: the same wrapper serves the node host, the middleware and the service worker.
 *
 * Never a second read: the request body shown is the one the collector read itself (`readBody`
 * leaves its bytes on the Request, core/body.ts); the answer is kept by reference (a FastResponse's
 * bytes) or not at all (a streamed read: `captured: false`). Encoded (gzip) bodies keep only their
 * size. An engine assembled twice (the CLI's engines handed to `serve`) is journaled once.
 * WebSocket handshakes (`upgrade`) are not journaled, as for the mock API. Without a mock
 * API (collector only) there is no journal (docs/devtools.md, "Request journal").
 */
import type { Engine } from '../core/engine.js';
import { observeEngine } from '../core/observed-engine.js';
import type { Journal } from './journal.js';

const kJournaled = Symbol.for('mockyard.journaled');

/** True for an engine already journaled (or wrapped again by another observer, as the CLI's log). */
export const isJournaled = (engine: Engine): boolean => kJournaled in engine;

export function journaled<E extends Engine>(engine: E, journal: Journal, layer: string): E {
  if (isJournaled(engine)) return engine;
  const base = engine.prefixes[0] ?? '';
  const wrapper = observeEngine(
    engine,
    (x) => journal.record(x),
    (pathname) => ({ layer, detail: pathname.startsWith(base) ? pathname.slice(base.length) || '/' : pathname }),
  );
  Object.defineProperty(wrapper, kJournaled, { value: true });
  return wrapper;
}
