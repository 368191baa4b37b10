/**
 * Option validation: the one module every engine and host calls to check user options.
 * Each check throws an OptionsError whose message names the option, e.g.
 *   mockyard: option "mock.delay" must be a number >= 0 (got "fast")
 */
export class OptionsError extends Error {
  /** The (first) option named. */
  readonly option: string;
  /** Every option named (several when one check found several faults, e.g. unknown keys). */
  readonly options: readonly string[];
  constructor(option: string | readonly string[], message: string) {
    const options = typeof option === 'string' ? [option] : option;
    super(`mockyard: ${options.length === 1 ? 'option' : 'options'} ${options.map((o) => `"${o}"`).join(', ')} ${message}`);
    this.name = 'OptionsError';
    this.option = options[0]!;
    this.options = options;
  }
}

/** Edit distance (insert, delete, substitute, swap neighbours) between two short names. */
function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[a.length]![b.length]!;
}

/** The known name a typo most likely meant (`prot` → `port`, `fsdir` → `fsDir`), if any is close. */
export function closest(key: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Math.min(2, Math.floor(key.length / 3));
  for (const k of known) {
    const dist = k.toLowerCase() === key.toLowerCase() ? 0 : distance(key, k);
    if (dist <= bestDistance) {
      best = k;
      bestDistance = dist;
    }
  }
  return best;
}

export function describe(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (typeof value === 'function') return 'a function';
  try {
    const s = JSON.stringify(value);
    return s.length > 60 ? `${s.slice(0, 57)}...` : s;
  } catch {
    return String(value);
  }
}

function fail(option: string, expected: string, value: unknown): never {
  throw new OptionsError(option, `must be ${expected} (got ${describe(value)})`);
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Validators: `undefined` passes through as `fallback` unless the option is required. */
export const check = {
  boolean(value: unknown, option: string, fallback: boolean): boolean {
    if (value === undefined) return fallback;
    if (typeof value !== 'boolean') fail(option, 'true or false', value);
    return value;
  },
  number(value: unknown, option: string, fallback: number, opts: { min?: number; max?: number; integer?: boolean } = {}): number {
    if (value === undefined) return fallback;
    const { min = -Infinity, max = Infinity, integer = false } = opts;
    const bound = [min > -Infinity ? `>= ${min}` : '', max < Infinity ? `<= ${max}` : ''].filter(Boolean).join(' and ');
    const expected = `${integer ? 'an integer' : 'a number'}${bound ? ` ${bound}` : ''}`;
    if (typeof value !== 'number' || Number.isNaN(value) || (integer && !Number.isInteger(value)) || value < min || value > max) {
      fail(option, expected, value);
    }
    return value;
  },
  string(value: unknown, option: string, fallback?: string, opts: { nonEmpty?: boolean } = {}): string | undefined {
    if (value === undefined) return fallback;
    if (typeof value !== 'string' || (opts.nonEmpty && value === '')) fail(option, opts.nonEmpty ? 'a non-empty string' : 'a string', value);
    return value;
  },
  oneOf<T extends string>(value: unknown, option: string, allowed: readonly T[], fallback: T): T {
    if (value === undefined) return fallback;
    if (typeof value !== 'string' || !allowed.includes(value as T)) fail(option, `one of ${allowed.map((a) => `"${a}"`).join(', ')}`, value);
    return value as T;
  },
  fn<T extends (...args: never[]) => unknown>(value: unknown, option: string): T | undefined {
    if (value === undefined) return undefined;
    if (typeof value !== 'function') fail(option, 'a function', value);
    return value as T;
  },
  array<T = unknown>(value: unknown, option: string, fallback: T[] = []): T[] {
    if (value === undefined || value === null) return fallback;
    if (!Array.isArray(value)) fail(option, 'an array', value);
    return value as T[];
  },
  object(value: unknown, option: string): Record<string, unknown> | undefined {
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'object' || Array.isArray(value)) fail(option, 'an object', value);
    return value as Record<string, unknown>;
  },
  /**
   * Rejects keys that are not in `known` (catches typos such as `endpointPrefx`), all of them in
   * one message, each with the known name it most likely meant.
   */
  knownKeys(value: Record<string, unknown>, option: string, known: readonly string[]): void {
    const unknown = Object.keys(value).filter((key) => !known.includes(key));
    if (unknown.length === 0) return;
    const names = unknown.map((key) => (option ? `${option}.${key}` : key));
    const hints = unknown.map((key) => [key, closest(key, known)] as const).filter(([, k]) => k !== undefined);
    const hint = hints.length === 0 ? '' : ` (did you mean ${hints.map(([key, k]) => (unknown.length === 1 ? `"${k}"` : `"${k}" for "${key}"`)).join(', ')}?)`;
    const verb = unknown.length === 1 ? 'is not a known option' : 'are not known options';
    throw new OptionsError(names, `${verb}${hint} (known: ${known.join(', ')})`);
  },
};
