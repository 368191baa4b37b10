import { afterEach, describe, expect, it } from 'vitest';
import { buildEntry } from '../../../src/engine/file-cache/file-cache.js';
import { compileFilters } from '../../../src/engine/file-cache/filters.js';
import { querySource } from '../../../src/engine/file-cache/param-source.js';
import { readPage } from '../../../src/engine/file-cache/pagination.js';
import { runQuery } from '../../../src/engine/file-cache/query.js';
import { setScanCodegen } from '../../../src/engine/file-cache/scan.js';
import type { FilterEntry } from '../../../src/engine/types.js';

afterEach(() => setScanCodegen(true));

// Deterministic pseudo-random data with awkward values: numeric strings, missing fields,
// nulls, booleans, nested objects, non-object items.
function rng(seed: number) {
  return () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
}
const r = rng(42);
const ITEMS: unknown[] = Array.from({ length: 600 }, (_, i) => {
  if (i % 97 === 0) return i % 2 ? 'a string item' : null;
  const o: Record<string, unknown> = { id: i };
  const x = r();
  if (x < 0.8) o.age = x < 0.1 ? String(Math.floor(r() * 90)) : Math.floor(r() * 90);
  if (r() < 0.9) o.role = ['admin', 'user', 'guest', 'User', 7][Math.floor(r() * 5)];
  if (r() < 0.5) o.flag = r() < 0.5;
  if (r() < 0.5) o.nested = { city: ['Paris', 'Rome'][Math.floor(r() * 2)] };
  return o;
});

const ENTRIES: FilterEntry[] = [
  { key: 'role' },
  { key: 'notRole', field: 'role', comparison: 'neq' },
  { key: 'roles', field: 'role', comparison: 'in' },
  { key: 'notRoles', field: 'role', comparison: 'nin' },
  { key: 'age', valueType: 'number' },
  { key: 'minAge', field: 'age', valueType: 'number', comparison: 'gte' },
  { key: 'maxAge', field: 'age', valueType: 'number', comparison: 'lt' },
  { key: 'gtAge', field: 'age', valueType: 'number', comparison: 'gt' },
  { key: 'lteAge', field: 'age', valueType: 'number', comparison: 'lte' },
  { key: 'ages', field: 'age', valueType: 'number[]', comparison: 'nin' },
  { key: 'flag', valueType: 'boolean' },
  { key: 'city', field: 'nested.city' },
  { key: 'roleLike', field: 'role', comparison: 'contains' },
  { key: 'roleGt', field: 'role', comparison: 'gt' },
];

const QUERIES = [
  'role=user', 'notRole=user', 'roles=user,guest', 'notRoles=admin', 'age=7', 'minAge=30', 'maxAge=10&role=admin',
  'gtAge=50&notRole=guest', 'lteAge=3', 'ages=1,2,3,4,5', 'flag=true&minAge=20', 'city=Rome&roles=admin,7', 'roleLike=US',
  'roleGt=h', 'role=7', 'minAge=10&maxAge=20&notRoles=guest,User&limit=5&skip=3&sort=age&order=desc',
];

// Only objects: the compiled scan then reads fields without checking each item (its fast form).
const OBJECT_ITEMS = ITEMS.filter((x) => typeof x === 'object' && x !== null);

describe.each([
  ['mixed items', ITEMS],
  ['object items', OBJECT_ITEMS],
])('compiled scan agrees with the closure walk (%s)', (_, items) => {
  for (const q of QUERIES) {
    it(q, () => {
      const params = new URLSearchParams(q);
      const run = () => {
        const entry = buildEntry('x.json', { kind: 'file', size: 0, mtimeMs: 0 }, new TextEncoder().encode(JSON.stringify(items)));
        const preds = compileFilters({ type: "query-param", filters: ENTRIES }, querySource(params)).predicates;
        const page = readPage({ type: 'query-param', limit: 'limit', skip: 'skip', sort: 'sort', order: 'order' }, querySource(params));
        return runQuery(entry, entry.array!, preds, page, true);
      };
      setScanCodegen(true);
      const compiled = run();
      setScanCodegen(false);
      const walked = run();
      expect(compiled).toEqual(walked);
      expect(walked.total).toBeGreaterThan(0);
    });
  }
});
