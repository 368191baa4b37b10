/**
 * Just enough of vitest's `describe` / `it` / `expect` to run a shared suite (test/vfs/contract.ts)
 * unchanged inside a Chromium page. The e2e runner reads `window.__results` and turns every
 * entry into a vitest test on the Node side.
 */
/** The part of vitest's test context the suite uses: `ctx.skip(note)` ends the case as skipped. */
export interface TestContext { skip(note?: string): never }
type Fn = (ctx: TestContext) => unknown | Promise<unknown>;

class Skipped extends Error {}
interface Case { name: string; fn: Fn }
const cases: Case[] = [];
const prefix: string[] = [];

export function describe(name: string, body: () => void): void {
  prefix.push(name);
  try {
    body();
  } finally {
    prefix.pop();
  }
}

export function it(name: string, fn: Fn): void {
  cases.push({ name: [...prefix, name].join(' > '), fn });
}
export const test = it;

export interface CaseResult { name: string; ok: boolean; error?: string; skipped?: string }

const context: TestContext = {
  skip(note?: string): never {
    throw new Skipped(note ?? 'skipped');
  },
};

export async function runAll(): Promise<CaseResult[]> {
  const results: CaseResult[] = [];
  for (const c of cases) {
    try {
      await c.fn(context);
      results.push({ name: c.name, ok: true });
    } catch (err) {
      if (err instanceof Skipped) results.push({ name: c.name, ok: true, skipped: err.message });
      else results.push({ name: c.name, ok: false, error: err instanceof Error ? `${err.message}\n${err.stack ?? ''}` : String(err) });
    }
  }
  return results;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null;
}

function equals(a: unknown, b: unknown, subset = false): boolean {
  if (Object.is(a, b)) return true;
  if (ArrayBuffer.isView(a) && ArrayBuffer.isView(b)) {
    const x = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
    const y = new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
    return a.constructor === b.constructor && x.length === y.length && x.every((v, i) => v === y[i]);
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, i) => equals(v, b[i], subset));
  }
  if (isObject(a) && isObject(b)) {
    const keysB = Object.keys(b).filter((k) => b[k] !== undefined);
    const keysA = Object.keys(a).filter((k) => a[k] !== undefined);
    if (!subset && keysA.length !== keysB.length) return false;
    return keysB.every((k) => equals(a[k], b[k], subset));
  }
  return false;
}

const show = (v: unknown) => {
  if (ArrayBuffer.isView(v)) return `${v.constructor.name}(${(v as Uint8Array).length})`;
  try {
    return JSON.stringify(v);
  } catch {
    return String(v);
  }
};

function matchers(actual: unknown, negate: boolean, label?: string) {
  const check = (pass: boolean, what: string) => {
    if (pass === negate) throw new Error(`${label ? `${label}: ` : ''}expected ${show(actual)} ${negate ? 'not ' : ''}${what}`);
  };
  return {
    toBe: (expected: unknown) => check(Object.is(actual, expected), `to be ${show(expected)}`),
    toEqual: (expected: unknown) => check(equals(actual, expected), `to equal ${show(expected)}`),
    toStrictEqual: (expected: unknown) => check(equals(actual, expected), `to strictly equal ${show(expected)}`),
    toMatchObject: (expected: unknown) => check(equals(actual, expected, true), `to match ${show(expected)}`),
    toBeNull: () => check(actual === null, 'to be null'),
    toBeUndefined: () => check(actual === undefined, 'to be undefined'),
    toBeDefined: () => check(actual !== undefined, 'to be defined'),
    toBeTruthy: () => check(Boolean(actual), 'to be truthy'),
    toBeFalsy: () => check(!actual, 'to be falsy'),
    toHaveLength: (n: number) => check((actual as { length?: number })?.length === n, `to have length ${n}`),
    toContain: (item: unknown) => check((actual as { includes?: (x: unknown) => boolean })?.includes?.(item) === true, `to contain ${show(item)}`),
    toBeGreaterThan: (n: number) => check((actual as number) > n, `to be > ${n}`),
    toBeGreaterThanOrEqual: (n: number) => check((actual as number) >= n, `to be >= ${n}`),
    toBeLessThan: (n: number) => check((actual as number) < n, `to be < ${n}`),
  };
}

export function expect(actual: unknown, label?: string) {
  return Object.assign(matchers(actual, false, label), { not: matchers(actual, true, label) });
}
