/**
 * The per-request context the engine builds once (one URL parse) and hands to every layer:
 * handler layer, file-system mode, WebSocket layer.
 */
export interface RequestContext {
  /** The original platform (or host-provided lazy) Request. */
  readonly request: Request;
  /** Upper-cased method. */
  readonly method: string;
  /** Full URL path, still percent-encoded (`/api/users/1`). */
  readonly pathname: string;
  /** The endpoint prefix that matched (`/api`; `''` never happens: prefixes are non-empty). */
  readonly prefix: string;
  /** The path below the prefix, still encoded: `/users/1`, `/` or `''` (request for the prefix itself). */
  readonly subPath: string;
  /** The raw query string including `?`, or `''`. */
  readonly search: string;
  /** Parsed query (built on first use). */
  readonly searchParams: URLSearchParams;
  /** `performance.now()` when the engine received the request (for the access log). */
  readonly start: number;
}

const EMPTY = '';

class Context implements RequestContext {
  readonly subPath: string;
  private params: URLSearchParams | undefined = undefined;
  constructor(
    readonly request: Request,
    readonly method: string,
    readonly pathname: string,
    readonly search: string,
    readonly prefix: string,
    readonly start: number,
  ) {
    this.subPath = pathname.length === prefix.length ? EMPTY : pathname.slice(prefix.length);
  }
  get searchParams(): URLSearchParams {
    return (this.params ??= new URLSearchParams(this.search));
  }
}

/** Builds a context. `searchParams` is lazy so a GET without query never allocates one. */
export function createContext(request: Request, method: string, pathname: string, search: string, prefix: string, start: number): RequestContext {
  return new Context(request, method, pathname, search, prefix, start);
}
