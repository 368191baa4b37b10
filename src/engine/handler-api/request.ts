/**
 * The `req` handed to handlers and middlewares. Built per request from the engine's context;
 * `headers` and `query` are computed on first use so a handler that ignores them costs nothing.
 * `query` and `body` stay assignable (custom parsers, `transform`, middlewares).
 */
import type { RequestContext } from '../context.js';
import type { HandlerRequest, MockApiApp, UploadedFile } from '../types.js';
import { parseQuery } from './fields.js';

export class PortableRequest implements HandlerRequest {
  readonly method: string;
  readonly path: string;
  /** The original Request (for `handle: 'FS'` with custom parsers: a copy holding the already-read body). */
  request: Request;
  readonly app: MockApiApp;
  params: Record<string, string>;
  body: unknown = undefined;
  files: UploadedFile[] = [];
  locals: Record<string, unknown> = {};
  private readonly search: string;
  private queryValue: Record<string, string | string[]> | undefined;

  constructor(ctx: RequestContext, params: Record<string, string>, app: MockApiApp) {
    this.method = ctx.method;
    this.path = ctx.pathname;
    this.request = ctx.request;
    this.search = ctx.search;
    this.params = params;
    this.app = app;
  }

  get url(): string {
    return this.request.url;
  }

  get headers(): Headers {
    return this.request.headers;
  }

  get query(): Record<string, string | string[]> {
    return (this.queryValue ??= parseQuery(this.search));
  }

  set query(value: Record<string, string | string[]>) {
    this.queryValue = value;
  }

  /** Express style header lookup (case-insensitive). */
  get(name: string): string | undefined {
    return this.request.headers.get(name) ?? undefined;
  }

  /** Express alias of `get`. */
  header(name: string): string | undefined {
    return this.get(name);
  }
}
