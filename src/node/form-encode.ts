/**
 * Turns a body an earlier middleware parsed from `application/x-www-form-urlencoded` (express /
 * body-parser `urlencoded()`, either `extended` setting) back into the form encoding, so the
 * engine reads the same fields it would have read from the wire.
 *
 * `extended: false` gives flat string values (a repeated name as an array); `extended: true`
 * (the qs library) nests bracketed names: `a[b]=1&c=2` → `{ a: { b: '1' }, c: '2' }`. Nested
 * values are written back with qs-style brackets, so `qs.parse(encodeForm(body))` equals `body`:
 *   - an object below `k`: `k[key]=…`;
 *   - an array of plain values: at the top level the name repeated (`k=1&k=2`, which both
 *     settings parse as an array), below it `k[x][]=1&k[x][]=2`;
 *   - an array holding objects or arrays: indexed, `k[0][name]=…`;
 *   - null / undefined → `k=` (qs writes null as an empty value).
 */

type Pairs = Array<[string, string]>;

function scalar(v: unknown): string {
  return v === null || v === undefined ? '' : String(v);
}

function isNested(v: unknown): boolean {
  return v !== null && typeof v === 'object';
}

function add(pairs: Pairs, name: string, value: unknown, top: boolean): void {
  if (Array.isArray(value)) {
    if (value.some(isNested)) value.forEach((item, i) => add(pairs, `${name}[${i}]`, item, false));
    else for (const item of value) pairs.push([top ? name : `${name}[]`, scalar(item)]);
  } else if (isNested(value)) {
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) add(pairs, `${name}[${k}]`, v, false);
  } else {
    pairs.push([name, scalar(value)]);
  }
}

/** The form-encoded text of a parsed urlencoded body (see above). */
export function encodeForm(body: Record<string, unknown>): string {
  const pairs: Pairs = [];
  for (const [k, v] of Object.entries(body)) add(pairs, k, v, true);
  return new URLSearchParams(pairs).toString();
}
