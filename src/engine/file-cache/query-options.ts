/**
 * The files layer's `pagination` and `filters` options (also a handler's own, engine/handlers/
 * routes.ts): per-method maps (`{ GET: {…}, ALL: {…} }`) validated at start-up, resolved next to
 * the layer that reads them (file-cache/pagination.ts, file-cache/filters.ts).
 */
import { check, describe, isPlainObject, OptionsError } from '../../core/options.js';
import type { FilterComparison, FilterConfig, FilterEntry, FilterValueType, PaginationConfig, PerMethod } from '../types.js';

const METHOD_KEYS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'ALL'] as const;
const COMPARISONS: readonly FilterComparison[] = ['eq', 'neq', 'ne', 'gt', 'gte', 'lt', 'lte', 'in', 'nin', 'contains'];
const VALUE_TYPES: readonly FilterValueType[] = ['string', 'number', 'boolean', 'date', 'string[]', 'number[]', 'boolean[]', 'date[]'];

function resolvePerMethod<T>(value: unknown, option: string, one: (v: unknown, option: string) => T): PerMethod<T> | null {
  if (value === undefined || value === null) return null;
  if (!isPlainObject(value)) throw new OptionsError(option, `must be an object keyed by HTTP method (got ${describe(value)})`);
  const out: PerMethod<T> = {};
  for (const [key, v] of Object.entries(value)) {
    const method = key.toUpperCase();
    if (!(METHOD_KEYS as readonly string[]).includes(method)) {
      throw new OptionsError(`${option}.${key}`, `is not an HTTP method (known: ${METHOD_KEYS.join(', ')})`);
    }
    if (v === undefined || v === null) continue;
    out[method as (typeof METHOD_KEYS)[number]] = one(v, `${option}.${key}`);
  }
  return Object.keys(out).length ? out : null;
}

function resolveOnePagination(value: unknown, option: string): PaginationConfig {
  if (!isPlainObject(value)) throw new OptionsError(option, `must be an object (got ${describe(value)})`);
  check.knownKeys(value, option, ['type', 'limit', 'skip', 'sort', 'order', 'root']);
  const out: PaginationConfig = { type: check.oneOf(value.type, `${option}.type`, ['query-param', 'body'] as const, 'query-param') };
  for (const k of ['limit', 'skip', 'sort', 'order', 'root'] as const) {
    const s = check.string(value[k], `${option}.${k}`, undefined, { nonEmpty: true });
    if (s !== undefined) out[k] = s;
  }
  return out;
}

function resolveOneFilter(value: unknown, option: string): FilterConfig {
  if (!isPlainObject(value)) throw new OptionsError(option, `must be an object (got ${describe(value)})`);
  check.knownKeys(value, option, ['type', 'root', 'filters']);
  const type = check.oneOf(value.type, `${option}.type`, ['query-param', 'body'] as const, 'query-param');
  const root = check.string(value.root, `${option}.root`, undefined, { nonEmpty: true });
  const entries = check.array<unknown>(value.filters, `${option}.filters`);
  const filters: FilterEntry[] = entries.map((e, i) => {
    const at = `${option}.filters[${i}]`;
    if (!isPlainObject(e)) throw new OptionsError(at, `must be an object (got ${describe(e)})`);
    check.knownKeys(e, at, ['key', 'field', 'valueType', 'comparison']);
    const key = check.string(e.key, `${at}.key`, undefined, { nonEmpty: true });
    if (key === undefined) throw new OptionsError(`${at}.key`, 'is required');
    const field = check.string(e.field, `${at}.field`, key, { nonEmpty: true })!;
    const valueType = check.oneOf(e.valueType, `${at}.valueType`, VALUE_TYPES, 'string');
    const comparison = check.oneOf(e.comparison, `${at}.comparison`, COMPARISONS, 'eq');
    return { key, field, valueType, comparison };
  });
  const out: FilterConfig = { type, filters };
  if (root !== undefined) out.root = root;
  return out;
}

/** Validates a per-method pagination map (also used for handler-level `pagination`). */
export function resolvePagination(value: unknown, option: string): PerMethod<PaginationConfig> | null {
  return resolvePerMethod(value, option, resolveOnePagination);
}

/** Validates a per-method filter map (also used for handler-level `filters`); fills `field`, `valueType`, `comparison`. */
export function resolveFilters(value: unknown, option: string): PerMethod<FilterConfig> | null {
  return resolvePerMethod(value, option, resolveOneFilter);
}
