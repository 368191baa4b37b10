/**
 * What every file-mode method needs: the request (one call = one request), the environment
 * (filesystem, caches, queue, limits) and small shared steps (body, config, Location).
 */
import { readDecodedBody } from '../../core/content-encoding.js';
import type { BoundedSyncInflate } from '../../core/inflate-bounded.js';
import type { KeyedQueue } from '../../core/keyed-queue.js';
import type { Logger } from '../../core/logger.js';
import { joinSafe, requestPathToVfs, type RequestPath } from '../../vfs/path.js';
import type { Vfs } from '../../vfs/types.js';
import type { RequestContext } from '../context.js';
import { HttpError } from '../../core/errors.js';
import type { FilterConfig, PaginationConfig, PerMethod } from '../types.js';
import type { FileCache, FileEntry } from './file-cache.js';
import { EMPTY_SOURCE, bodySource, querySource, type ParamSource } from './param-source.js';
import { compileFilters, configId, type CompiledFilters, type Predicate } from './filters.js';
import { readPage, type Page } from './pagination.js';
import { SCENARIO_PARAM } from '../selection/scenario.js';
import { SESSION_PARAM } from '../selection/session.js';

export interface FsEnv {
  /** The files layer's name (default `files`): reads record `ctx.answered(name, file below fsDir)`. */
  readonly name?: string;
  readonly vfs: Vfs;
  /** Mocks folder inside the Vfs (`''` = root). */
  readonly fsDir: string;
  readonly cache: FileCache;
  readonly queue: KeyedQueue;
  readonly bodyLimit: number;
  /** The runtime's native inflate for compressed request bodies (content-encoding.ts). */
  readonly inflate?: BoundedSyncInflate;
  /** Deepest JSON nesting accepted (bodies and files; core/json-depth.ts). */
  readonly maxJsonDepth: number;
  readonly logger: Logger;
  /** Called when a GET answers a whole file although query parameters were given that no option reads. */
  readonly onUnreadQuery?: (call: FsCall, entry: FileEntry) => void;
}

/**
 * One file-mode request. `rel`/`trailingSlash` (the safe decoded path, via requestPathToVfs:
 * 400 on traversal tricks) are computed on first use, so a cached GET never pays for them: the
 * lookup cache is keyed by the raw path, and only paths that passed the check are ever stored.
 */
export class FsCall {
  private parsed: RequestPath | undefined = undefined;
  constructor(
    readonly ctx: RequestContext,
    /** The raw (encoded) path below the prefix: the lookup cache key. */
    readonly key: string,
    readonly pagination: PerMethod<PaginationConfig> | null,
    readonly filters: PerMethod<FilterConfig> | null,
    /** Body already read by the handler layer. */
    readonly body: Uint8Array | undefined,
    /**
     * A handler's `rewrite` chose the path: it may have consumed query parameters, so writes do
     * not refuse the ones no filter or pagination option names (assertKnownParams).
     */
    readonly rewritten = false,
  ) {}

  private get path(): RequestPath {
    return (this.parsed ??= requestPathToVfs(this.key));
  }
  /** Safe decoded path below fsDir. */
  get rel(): string {
    return this.path.path;
  }
  get trailingSlash(): boolean {
    return this.path.trailingSlash;
  }
}

/** The request body (content codings undone), at most `bodyLimit` bytes (413 beyond). */
export function requestBody(call: FsCall, env: FsEnv): Promise<Uint8Array> {
  return call.body !== undefined ? Promise.resolve(call.body) : readDecodedBody(call.ctx.request, env.bodyLimit, env.inflate);
}

/** The config for a method: its own, HEAD falls back to GET's, then `ALL`. */
export function configFor<T>(map: PerMethod<T> | null, method: string): T | undefined {
  if (!map) return undefined;
  const m = method as keyof PerMethod<T>;
  return map[m] ?? (method === 'HEAD' ? map.GET : undefined) ?? map.ALL;
}

export interface QueryInput {
  predicates: Predicate[];
  /** Filter signature for the match memo ('' when no filter is given). */
  signature: string;
  page: Page | undefined;
  /** Any filter or pagination parameter given. */
  present: boolean;
}

function sourceFor(type: 'query-param' | 'body', root: string | undefined, call: FsCall, body: unknown): ParamSource {
  if (type === 'body') return body === undefined ? EMPTY_SOURCE : bodySource(body, root);
  return call.ctx.search.length > 1 ? querySource(call.ctx.searchParams) : EMPTY_SOURCE;
}

const NO_FILTERS: CompiledFilters = { predicates: [], signature: '' };

/**
 * Parsed query inputs by query string, per configuration (filters, else pagination): a list UI
 * or a test asks the same URLs again and again, and parsing parameters and compiling filters
 * costs more than answering a memoised page. Only inputs read from the query string alone are
 * kept (never from a body), at most MAX_QUERY_INPUTS per configuration, oldest out first; a
 * query that is refused (400) is never kept. QueryInput values are never mutated.
 */
const queryInputs = new WeakMap<object, Map<string, QueryInput>>();
const MAX_QUERY_INPUTS = 64;

function parseQuery(call: FsCall, pc: PaginationConfig | undefined, fc: FilterConfig | undefined, body: unknown): QueryInput {
  const { predicates, signature } = fc ? compileFilters(fc, sourceFor(fc.type, fc.root, call, body)) : NO_FILTERS;
  const page = pc ? readPage(pc, sourceFor(pc.type, pc.root, call, body)) : undefined;
  return { predicates, signature, page, present: predicates.length > 0 || page?.present === true };
}

/** Reads filter and pagination input for `method` (body values only where a body exists). */
export function readQuery(call: FsCall, method: string, body?: unknown): QueryInput {
  const pc = configFor(call.pagination, method);
  const fc = configFor(call.filters, method);
  const owner = fc ?? pc;
  if (owner === undefined || (pc !== undefined && pc.type !== 'query-param') || (fc !== undefined && fc.type !== 'query-param')) return parseQuery(call, pc, fc, body);
  let memo = queryInputs.get(owner);
  // With both configured, the pagination config is part of the key (one filter config can meet
  // several pagination configs through handlers' per-route overrides).
  const key = fc !== undefined && pc !== undefined ? `${configId(pc)}${call.ctx.search}` : call.ctx.search;
  const hit = memo?.get(key);
  if (hit !== undefined) return hit;
  const input = parseQuery(call, pc, fc, body);
  if (memo === undefined) queryInputs.set(owner, (memo = new Map()));
  if (memo.size >= MAX_QUERY_INPUTS) memo.delete(memo.keys().next().value!);
  memo.set(key, input);
  return input;
}

const WHOLE_FILE: Record<string, string> = {
  DELETE: 'DELETE would remove the whole file',
  PUT: 'PUT replaces the whole file',
  PATCH: 'PATCH applies to the whole document',
};

/**
 * Writes that apply to a whole file (DELETE, PUT, PATCH) refuse query parameters that no filter
 * or pagination option of that method reads: `DELETE /api/users?id=3` without a DELETE filter on
 * `id` would otherwise delete every user. 400 naming them. (GET keeps ignoring unknown
 * parameters: cache busters. Paths chosen by a handler's `rewrite` are exempt: it may have used
 * them. `__scenario` and `__session` are the engine's own: never unknown.)
 */
export function assertKnownParams(call: FsCall, method: 'DELETE' | 'PUT' | 'PATCH'): void {
  if (call.ctx.search.length <= 1 || call.rewritten) return;
  // The engine's own control parameter (scenario selection) is read before any layer runs.
  const known = new Set<string>([SCENARIO_PARAM, SESSION_PARAM]);
  const pc = configFor(call.pagination, method);
  if (pc?.type === 'query-param') for (const name of [pc.limit, pc.skip, pc.sort, pc.order]) if (name) known.add(name);
  const fc = configFor(call.filters, method);
  if (fc?.type === 'query-param') for (const entry of fc.filters) known.add(entry.key);
  const unknown: string[] = [];
  for (const name of call.ctx.searchParams.keys()) if (!known.has(name) && !unknown.includes(name)) unknown.push(name);
  if (unknown.length === 0) return;
  const names = unknown.map((n) => JSON.stringify(n)).join(', ');
  throw new HttpError(
    400,
    `Unknown query parameter${unknown.length > 1 ? 's' : ''} ${names}: no ${method} filter or pagination option reads ${unknown.length > 1 ? 'them' : 'it'}, and ${WHOLE_FILE[method]}`,
    { details: { parameters: unknown } },
  );
}

export function hasQueryConfig(call: FsCall, method: string): boolean {
  return configFor(call.pagination, method) !== undefined || configFor(call.filters, method) !== undefined;
}

/** Path of a Vfs file relative to fsDir. */
export function relativeToFsDir(env: FsEnv, path: string): string {
  return env.fsDir ? path.slice(env.fsDir.length + 1) : path;
}

/** The URL path that serves a Vfs file exactly (`/api/users/3.json`). */
export function locationOf(call: FsCall, env: FsEnv, path: string): string {
  const rel = relativeToFsDir(env, path);
  return `${call.ctx.prefix}/${rel.split('/').map(encodeURIComponent).join('/')}`;
}

/** Joins fsDir and a relative path. */
export function inFsDir(env: FsEnv, rel: string): string {
  return joinSafe(env.fsDir, rel);
}
