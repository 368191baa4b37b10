/**
 * The per-request context the engine builds once (one URL parse) and hands to every layer of the
 * pipeline (src/engine/pipeline/) and to the WebSocket layer.
 *
 * Besides the parsed request it carries two things layers write:
 *   - `answered(layer, detail)`: which layer answered, for observers (request log, journal);
 *   - the pipeline's own bookkeeping (`resumeAt`, `peeked`): where the synchronous fast path
 *     stopped, so the promise path resumes there instead of asking again (pipeline/run.ts).
 */
import { underPrefix } from '../core/engine.js';
import { splitUrl, type AnsweredBy } from '../core/exchange.js';

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
  /** `performance.now()` when the engine received the request (0 when nobody observes). */
  readonly start: number;
  /**
   * Records the layer that answered (the last call wins: a handler serving a file through file
   * mode records itself after file mode did).
   */
  answered(layer: string, detail?: string): void;
  /** What `answered` recorded, or undefined (nothing answered yet, or the request was passed on). */
  readonly answeredBy: AnsweredBy | undefined;
  /**
   * Pipeline bookkeeping (pipeline/run.ts): the index of the layer whose `peek` could not tell
   * at once; the promise path starts there (the layers before it said PASS). 0 = from the start.
   */
  resumeAt: number;
  /**
   * What that layer's `peek` prepared for its own `handle` (e.g. the handler route it matched),
   * so the promise path does not repeat the work. Only the layer at `resumeAt` reads it.
   */
  peeked: unknown;
  /**
   * Makes the later layers see another path below the prefix (encoded, `/posts/1`) and query
   * (`?…` or `''`): a rewrite layer (json-server's routes.json). `request` keeps the URL sent.
   */
  rewrite(subPath: string, search: string): void;
  /** The path and query as sent, once `rewrite` changed them (what observers and the journal report), else undefined. */
  readonly sent: { readonly pathname: string; readonly search: string } | undefined;
  /**
   * Adds a change the answer of this request goes through, whichever layer gives it (headers an
   * Express-style middleware set before `next()`, JSONP): applied by the runner (pipeline/run.ts).
   */
  onAnswer(change: (response: Response) => Response): void;
  /** The changes added with `onAnswer`, in order, or undefined. */
  readonly answerChanges: ReadonlyArray<(response: Response) => Response> | undefined;
  /**
   * The `Prefer` this request is answered with when a route override set one (a session's,
   * the shared or a saved scenario's: `{ prefer: "code=404" }`), in place of the request's own
   * header; undefined: the request's header. Read by the OpenAPI backend's Prefer rule.
   */
  prefer: string | undefined;
  /**
   * Set by a layer whose answer is a refusal the global `delay` spares (a GraphQL mutation under
   * `readOnly`: json-server 0.17's --read-only 403 is not delayed), as `Layer.ownDelay` spares a
   * whole layer's answers (pipeline/run.ts).
   */
  undelayed?: boolean;
}

const EMPTY = '';

class Context implements RequestContext {
  subPath: string;
  resumeAt = 0;
  peeked: unknown = undefined;
  private params: URLSearchParams | undefined = undefined;
  answeredBy: AnsweredBy | undefined = undefined;
  answerChanges: Array<(response: Response) => Response> | undefined = undefined;
  prefer: string | undefined = undefined;
  undelayed = false;
  constructor(
    readonly request: Request,
    readonly method: string,
    public pathname: string,
    public search: string,
    readonly prefix: string,
    readonly start: number,
  ) {
    this.subPath = pathname.length === prefix.length ? EMPTY : pathname.slice(prefix.length);
  }
  sent: { pathname: string; search: string } | undefined = undefined;
  rewrite(subPath: string, search: string): void {
    this.sent ??= { pathname: this.pathname, search: this.search };
    this.subPath = subPath;
    this.pathname = `${this.prefix}${subPath}` || '/';
    this.search = search;
    this.params = undefined;
  }
  onAnswer(change: (response: Response) => Response): void {
    (this.answerChanges ??= []).push(change);
  }
  get searchParams(): URLSearchParams {
    return (this.params ??= new URLSearchParams(this.search));
  }
  answered(layer: string, detail?: string): void {
    this.answeredBy = { layer, detail };
  }
}

/**
 * The context for a request under one of `prefixes` (longest first), or undefined when it is
 * under none. One URL split, no `new URL()` on the hot path.
 */
export function contextUnder(request: Request, prefixes: readonly string[], start: number): RequestContext | undefined {
  const [pathname, search] = splitUrl(request.url);
  for (let i = 0; i < prefixes.length; i++) {
    const prefix = prefixes[i]!;
    // Fetch upper-cases only the six standard methods; `fetch(url, { method: 'patch' })` in a
    // page reaches the engine as "patch". Methods are case-insensitive here, as in llhttp.
    if (underPrefix(pathname, prefix)) return new Context(request, request.method.toUpperCase(), pathname, search, prefix, start);
  }
  return undefined;
}
