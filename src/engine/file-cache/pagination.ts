/**
 * Pagination input: skip, limit, sort field (dot path) and order, read from the configured
 * parameter names. `order` accepts asc/desc in any case and 1/-1; limit and skip must be
 * non-negative integers (400 naming the parameter otherwise).
 */
import { HttpError } from '../../core/errors.js';
import type { PaginationConfig } from '../types.js';
import { parseDotPath, type DotPath } from './dot-path.js';
import { showValue, type ParamSource } from './param-source.js';

export interface Page {
  skip: number;
  limit: number | undefined;
  sort: DotPath | undefined;
  /** Sort field as given (cache key). */
  sortKey: string | undefined;
  desc: boolean;
  /** Whether any pagination parameter was given. */
  present: boolean;
}

function first(source: ParamSource, name: string | undefined): unknown {
  if (!name) return undefined;
  const v = source.values(name);
  if (!v) return undefined;
  const x = v[0];
  return x === '' ? undefined : x;
}

function count(v: unknown, name: string): number {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : NaN;
  if (!Number.isSafeInteger(n) || n < 0) {
    throw new HttpError(400, `Invalid value ${showValue(v)} for pagination parameter "${name}": expected a non-negative integer`);
  }
  return n;
}

export function readPage(config: PaginationConfig, source: ParamSource): Page {
  const rawLimit = first(source, config.limit);
  const rawSkip = first(source, config.skip);
  const rawSort = first(source, config.sort);
  const rawOrder = first(source, config.order);
  const page: Page = { skip: 0, limit: undefined, sort: undefined, sortKey: undefined, desc: false, present: false };
  if (rawLimit !== undefined) page.limit = count(rawLimit, config.limit!);
  if (rawSkip !== undefined) page.skip = count(rawSkip, config.skip!);
  if (rawSort !== undefined) {
    if (typeof rawSort !== 'string') throw new HttpError(400, `Invalid value ${showValue(rawSort)} for pagination parameter "${config.sort}": expected a field name`);
    page.sort = parseDotPath(rawSort);
    page.sortKey = rawSort;
  }
  if (rawOrder !== undefined) {
    const o = String(rawOrder).trim().toLowerCase();
    if (o === 'desc' || o === '-1') page.desc = true;
    else if (o !== 'asc' && o !== '1') {
      throw new HttpError(400, `Invalid value ${showValue(rawOrder)} for pagination parameter "${config.order}": expected asc, desc, 1 or -1`);
    }
  }
  page.present = rawLimit !== undefined || rawSkip !== undefined || rawSort !== undefined || rawOrder !== undefined;
  return page;
}
