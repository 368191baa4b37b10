/**
 * A write the devtools page makes through the mock API (devtools/admin-openapi-data.ts sends the
 * document's own operation), marked on the internal `Request` object it builds. The mark is a
 * property under a symbol private to this module: no header, query or body an HTTP client sends
 * can set it, and a request from the network never carries it.
 *
 *   - the openapi layer's security check takes it for the operation's credentials (an apiKey- or
 *     Basic-only operation takes the page's edit; everything else of the contract, the schema
 *     checks, ids, webhooks and the journal apply as to any request);
 *   - without a session, it walks the base pipeline even while a scenario is current
 *     (scenario-pipelines.ts): the Data tab's shared scope reads and resets the base's state;
 *   - `precondition`: the page's `If-Match`, checked by the OpenAPI backend against the item as it
 *     stands in the same turn as the write (no other write can come between the check and it).
 */
export interface PageWrite {
  /** Whether the item as it stands now is the one the page edited (its ETag matches); false: 412, nothing written. */
  readonly precondition?: (current: unknown) => boolean;
}

const kPageWrite = Symbol('mockyard.pageWrite');

/** Marks `request` as the devtools page's write; returns it. */
export function markPageWrite(request: Request, mark: PageWrite): Request {
  Object.defineProperty(request, kPageWrite, { value: mark, enumerable: false });
  return request;
}

/** The page's mark on `request`, or undefined (every request from a client). */
export function pageWriteOf(request: Request): PageWrite | undefined {
  return (request as unknown as Record<symbol, PageWrite | undefined>)[kPageWrite];
}
