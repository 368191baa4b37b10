/**
 * What an outside observer of an engine sees of one request (host-neutral, engine-neutral): the
 * `Exchange` the mock API's `observe` hook and `observeEngine` (observed-engine.ts) hand to the
 * CLI's request log and the devtools journal, what answered it (`AnsweredBy`), and `splitUrl`,
 * the one cheap split of a request URL into its encoded path and query.
 */

/** Which layer answered a request, and what in it (file path below fsDir, handler label…). */
export interface AnsweredBy {
  /** The layer's name: `handlers`, `files`, `collections`, …; `not-found` for the engine's own 404. */
  readonly layer: string;
  /** What in the layer answered: `users.json` (below fsDir), `GET /users/:id` (a handler)… */
  readonly detail: string | undefined;
}

/** What an observer receives after each request under the engine's prefixes. */
export interface Exchange {
  readonly method: string;
  /** URL path as sent (percent-encoded). */
  readonly pathname: string;
  /** Query string with `?`, or `''`. */
  readonly search: string;
  /** The answer's status, or undefined when the engine passed the request on ('forward'). */
  readonly status: number | undefined;
  /** Milliseconds from the engine receiving the request to its Response (body not yet sent). */
  readonly ms: number;
  /** The layer that answered (`not-found` for the engine's own 404), undefined when passed on. */
  readonly answeredBy: AnsweredBy | undefined;
  readonly request: Request;
  /** The Response (do not consume its body: the host sends it), or undefined when passed on. */
  readonly response: Response | undefined;
}

export type Observer = (exchange: Exchange) => void;

/** Splits an absolute URL into its encoded path and query (`?…` or ''), without `new URL()`. */
export function splitUrl(url: string): [string, string] {
  const scheme = url.indexOf('://');
  let p = scheme === -1 ? -1 : url.indexOf('/', scheme + 3);
  if (p === -1) {
    if (scheme === -1) {
      const u = new URL(url, 'http://localhost');
      return [u.pathname, u.search];
    }
    p = url.length;
  }
  let end = url.length;
  const hash = url.indexOf('#', p);
  if (hash !== -1) end = hash;
  const q = url.indexOf('?', p);
  if (q !== -1 && q < end) return [url.slice(p, q) || '/', url.slice(q, end)];
  return [url.slice(p, end) || '/', ''];
}
