/**
 * Filters: compiles the configured entries plus the request's values into predicates over
 * items. Comparisons: eq, neq (ne), gt, gte, lt, lte, in, nin, contains (case-insensitive).
 * Value types: string, number, boolean, date, and their array forms (lists for in/nin: a
 * comma-separated value, repeated parameters, or a JSON array in the body).
 * Items are read with own-property dot paths. An item whose field is missing or of another type
 * never equals anything: `eq`/`gt`/…/`in`/`contains` reject it, `neq`/`nin` keep it.
 */
import { HttpError } from '../../core/errors.js';
import type { FilterConfig, FilterEntry } from '../types.js';
import { getAt, parseDotPath } from './dot-path.js';
import { showValue, type ParamSource } from './param-source.js';

export type Predicate = ((item: unknown) => boolean) & {
  /** For the scan compiler (scan.ts): a simple top-level comparison it can inline. */
  simple?: SimpleFilter;
};

/** A comparison on one top-level, non-inherited key with a string or number value type. */
export interface SimpleFilter {
  key: string;
  base: 'string' | 'number';
  cmp: 'eq' | 'neq' | 'gt' | 'gte' | 'lt' | 'lte' | 'in' | 'nin';
  /** The coerced parameter (a Set for in/nin). */
  value: Scalar | Set<Scalar>;
  /** The answer for an item without a usable value. */
  missing: boolean;
}
type Base = 'string' | 'number' | 'boolean' | 'date';
export type Scalar = string | number | boolean;

function baseType(entry: FilterEntry): Base {
  const t = entry.valueType ?? 'string';
  return (t.endsWith('[]') ? t.slice(0, -2) : t) as Base;
}

/** Coerces a request value to the filter's type; 400 naming the parameter when impossible. */
function coerceParam(v: unknown, base: Base, key: string): Scalar {
  switch (base) {
    case 'string':
      if (typeof v === 'string') return v;
      if (typeof v === 'number' || typeof v === 'boolean') return String(v);
      break;
    case 'number': {
      const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
      if (Number.isFinite(n)) return n;
      break;
    }
    case 'boolean':
      if (typeof v === 'boolean') return v;
      if (v === 'true' || v === '1') return true;
      if (v === 'false' || v === '0') return false;
      break;
    case 'date': {
      const n = typeof v === 'number' ? v : typeof v === 'string' ? Date.parse(v) : NaN;
      if (Number.isFinite(n)) return n;
      break;
    }
  }
  throw new HttpError(400, `Invalid value ${showValue(v)} for filter "${key}": expected ${base === 'date' ? 'a date' : `a ${base}`}`);
}

/** An item value in the filter's type, or undefined when it has none. */
export function itemValue(v: unknown, base: Base): Scalar | undefined {
  switch (base) {
    case 'string':
      return typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : undefined;
    case 'number':
      if (typeof v === 'number') return v;
      if (typeof v === 'string' && v.trim() !== '') {
        const n = Number(v);
        return Number.isNaN(n) ? undefined : n;
      }
      return undefined;
    case 'boolean':
      return typeof v === 'boolean' ? v : v === 'true' ? true : v === 'false' ? false : undefined;
    case 'date': {
      const n = typeof v === 'string' ? Date.parse(v) : typeof v === 'number' ? v : NaN;
      return Number.isNaN(n) ? undefined : n;
    }
  }
}

/** `in`/`nin` values: a text value may list several (`a,b`). */
function splitList(values: unknown[]): unknown[] {
  return values.flatMap((v) => (typeof v === 'string' ? v.split(',').map((part) => part.trim()) : [v]));
}

/** Keys that a plain object or array inherits: reading them needs an own-property check (the compiled scan cannot read them as plain fields). */
export function inherited(key: string): boolean {
  return key in Object.prototype || key in Array.prototype || key === '__proto__';
}

type Reader = (item: unknown) => unknown;

function reader(path: readonly string[]): Reader {
  if (path.length === 1) {
    const key = path[0]!;
    if (!inherited(key)) {
      // JSON items are plain objects/arrays: a key they do not inherit can only be their own.
      return (item) => (item !== null && typeof item === 'object' ? (item as Record<string, unknown>)[key] : undefined);
    }
  }
  return (item) => getAt(item, path);
}

type Test = (v: Scalar) => boolean;

/** A predicate over items for a comparison on already-coerced item values. */
function typed(read: Reader, base: Base, test: Test, missing: boolean): Predicate {
  switch (base) {
    case 'string':
      return (item) => {
        const v = read(item);
        if (typeof v === 'string') return test(v);
        if (typeof v === 'number' || typeof v === 'boolean') return test(String(v));
        return missing;
      };
    case 'number':
      return (item) => {
        const v = read(item);
        if (typeof v === 'number') return test(v);
        const n = itemValue(v, 'number');
        return n === undefined ? missing : test(n);
      };
    default:
      return (item) => {
        const v = itemValue(read(item), base);
        return v === undefined ? missing : test(v);
      };
  }
}

/** What a filter entry compiles to apart from the request's values (built once per entry). */
interface EntryPlan {
  base: Base;
  cmp: Exclude<FilterEntry['comparison'], 'ne' | undefined> | 'neq';
  read: Reader;
  /** The top-level key the scan compiler may inline, when the entry qualifies. */
  simpleKey: string | undefined;
}

const plans = new WeakMap<FilterEntry, EntryPlan>();

function planFor(entry: FilterEntry): EntryPlan {
  let plan = plans.get(entry);
  if (plan === undefined) {
    const base = baseType(entry);
    const path = parseDotPath(entry.field ?? entry.key);
    const c = entry.comparison ?? 'eq';
    const cmp = c === 'ne' ? 'neq' : c;
    const simple = (base === 'string' || base === 'number') && path.length === 1 && !inherited(path[0]!) && cmp !== 'contains';
    plan = { base, cmp, read: reader(path), simpleKey: simple ? path[0]! : undefined };
    plans.set(entry, plan);
  }
  return plan;
}

/** The predicate for one entry and the request's values (coerced once, shared by closure and scan). */
function compile(entry: FilterEntry, raw: unknown[]): Predicate {
  const { base, cmp, read, simpleKey } = planFor(entry);
  let pred: Predicate;
  let value: Scalar | Set<Scalar>;
  if (cmp === 'in' || cmp === 'nin') {
    const set = new Set<Scalar>(splitList(raw).map((v) => coerceParam(v, base, entry.key)));
    value = set;
    pred = cmp === 'in' ? typed(read, base, (v) => set.has(v), false) : typed(read, base, (v) => !set.has(v), true);
  } else if (cmp === 'contains') {
    const needle = String(coerceParam(raw[0], 'string', entry.key)).toLowerCase();
    const one = (v: unknown) => {
      const s = itemValue(v, 'string');
      return s !== undefined && (s as string).toLowerCase().includes(needle);
    };
    return (item) => {
      const v = read(item);
      return Array.isArray(v) ? v.some(one) : one(v);
    };
  } else {
    const p = coerceParam(raw[0], base, entry.key);
    value = p;
    switch (cmp) {
      case 'eq': pred = typed(read, base, (v) => v === p, false); break;
      case 'neq': pred = typed(read, base, (v) => v !== p, true); break;
      case 'gt': pred = typed(read, base, (v) => v > p, false); break;
      case 'gte': pred = typed(read, base, (v) => v >= p, false); break;
      case 'lt': pred = typed(read, base, (v) => v < p, false); break;
      case 'lte': pred = typed(read, base, (v) => v <= p, false); break;
      default: throw new HttpError(500, `Unknown comparison ${String(cmp)}`);
    }
  }
  if (simpleKey !== undefined) {
    pred.simple = { key: simpleKey, base: base as 'string' | 'number', cmp, value, missing: cmp === 'neq' || cmp === 'nin' };
  }
  return pred;
}

/** Predicates for the entries whose parameter is present in the request (all apply: AND). */
export interface CompiledFilters {
  predicates: Predicate[];
  /**
   * Identifies this config and these request values: two requests with the same signature
   * select the same items (query.ts's match memo reuses the matches). Empty when no filter is given.
   */
  signature: string;
}

let nextConfigId = 1;
const configIds = new WeakMap<object, number>();

/** A stable number per configuration object (filter and pagination configs, route override lists), for memo keys. */
export function configId(config: object): number {
  let id = configIds.get(config);
  if (id === undefined) configIds.set(config, (id = nextConfigId++));
  return id;
}

export function compileFilters(config: FilterConfig, source: ParamSource): CompiledFilters {
  const predicates: Predicate[] = [];
  const given: unknown[] = [];
  for (const entry of config.filters) {
    // An empty query value (`?status=`) counts as absent.
    const raw = source.values(entry.key)?.filter((v) => v !== '');
    if (raw === undefined || raw.length === 0) {
      given.push(null);
      continue;
    }
    predicates.push(compile(entry, raw));
    given.push(raw);
  }
  if (predicates.length === 0) return { predicates, signature: '' };
  return { predicates, signature: `${configId(config)}:${JSON.stringify(given)}` };
}
