/**
 * The scanned json-server query (compiled scan, sort orders and match memo on the cached entry)
 * answers exactly what the plain filter-sort-slice does, on items of every JSON type.
 */
import { describe, expect, it } from 'vitest';
import { parseJsonServerQuery } from '../../../src/engine/collections/json-server-query.js';
import { runQuery } from '../../../src/engine/store/query.js';
import { queryEntry } from '../../../src/engine/store/scan.js';
import { buildEntry } from '../../../src/engine/file-cache/file-cache.js';
import { setScanCodegen } from '../../../src/engine/file-cache/scan.js';

const values = [0, 1, 30, 30.5, 31, 45, -2, '30', '31', ' 30', '', 'admin', 'Admin', 'guest', 'b', 'a', null, true, false, [30, 'admin'], { x: 1 }];
const pick = (i: number, k: number) => values[(i * 7 + k * 13 + ((i * k) % 5)) % values.length];
const items: unknown[] = [];
for (let i = 0; i < 120; i++) {
  const item: Record<string, unknown> = { id: i % 9 === 0 ? String(i) : i };
  if (i % 11 !== 3) item.role = i % 3 === 0 ? 'admin' : pick(i, 1);
  if (i % 13 !== 5) item.age = i % 4 === 0 ? 20 + (i % 40) : pick(i, 2);
  if (i % 6 === 0) item.name = `n${(i * 37) % 17}`;
  item.nested = { level: pick(i, 3) };
  items.push(item);
}
const entryOf = (list: unknown[]) => buildEntry('/mocks/users.json', { kind: 'file', size: 0, mtimeMs: 0 }, new TextEncoder().encode(JSON.stringify(list)));
// Objects only (the scan reads fields from columns), and with other values among them (it reads items).
const entries = { objects: entryOf(items), mixed: entryOf([...items, 'a string item', 42, null]) };

const queries = [
  'role=admin', 'role=admin&role=guest', 'age=30', 'age_gte=30', 'age_gte=30.5', 'age_gte=abc', 'age_gte=', 'age_lt=31&role=admin',
  'age_gt=30', 'age_lte=30', 'age_ne=30', 'role_ne=admin', 'role_like=^a', 'age:gte=30', 'age:in=30,31', 'role:eq=admin', 'missing=1',
  'role=admin&age_gte=30&_page=2&_limit=5', '_page=3&_limit=7', '_sort=age', '_sort=age&_order=desc', '_sort=role,-age', '_sort=name&role=admin',
  '_start=5&_end=9', '_start=-5', '_start=3&_limit=4', '_limit=abc', '_start=9&_end=3', '_page=2&_per_page=10&age_gte=30', 'q=admin', 'nested.level=30',
  'id=9', 'id=1', 'constructor=x', 'toString_gte=1', '_where={"or":[{"age":{"gte":40}},{"role":"guest"}]}',
];

describe('json-server query on a cached entry', () => {
  for (const [kind, entry] of Object.entries(entries)) for (const codegen of [true, false]) {
    it(`gives the store's query run's answer (${kind}, ${codegen ? 'compiled scan' : 'closures'}), memo included`, () => {
      setScanCodegen(codegen);
      try {
        for (const qs of queries) {
          const q = parseJsonServerQuery(new URLSearchParams(qs));
          const want = runQuery(entry.array!, q);
          // Three times: a first sighting, the memo being built, the memo answering.
          for (let n = 0; n < 3; n++) expect(queryEntry(entry, q), `${qs} #${n}`).toEqual(want);
        }
      } finally {
        setScanCodegen(true);
      }
    });
  }
});
