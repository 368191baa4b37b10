/**
 * Where pagination and filter input comes from: the query string (`type: 'query-param'`) or the
 * JSON body (`type: 'body'`, optionally below `root`, a dot path).
 */
import { getAt, parseDotPath } from './dot-path.js';

export interface ParamSource {
  /** Values given for `name` (repeated query parameters, or a body array), or undefined when absent. */
  values(name: string): unknown[] | undefined;
}

export const EMPTY_SOURCE: ParamSource = { values: () => undefined };

export function querySource(params: URLSearchParams): ParamSource {
  return {
    values(name) {
      const all = params.getAll(name);
      return all.length ? all : undefined;
    },
  };
}

export function bodySource(body: unknown, root: string | undefined): ParamSource {
  const base = root ? getAt(body, parseDotPath(root)) : body;
  if (base === null || typeof base !== 'object' || Array.isArray(base)) return EMPTY_SOURCE;
  return {
    values(name) {
      const v = getAt(base, [name]);
      if (v === undefined || v === null) return undefined;
      return Array.isArray(v) ? v : [v];
    },
  };
}

/** A request value as error messages show it (strings quoted). */
export function showValue(v: unknown): string {
  return typeof v === 'string' ? JSON.stringify(v) : String(v);
}
