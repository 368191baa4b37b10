/**
 * Option validation: the one module every engine and host calls to check user options.
 * Each check throws an OptionsError whose message names the option, e.g.
 *   mockyard: option "mock.delay" must be a number >= 0 (got "fast")
 */
export class OptionsError extends Error {
  readonly option: string;
  constructor(option: string, message: string) {
    super(`mockyard: option "${option}" ${message}`);
    this.name = 'OptionsError';
    this.option = option;
  }
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
  /** Rejects keys that are not in `known` (catches typos such as `endpointPrefx`). */
  knownKeys(value: Record<string, unknown>, option: string, known: readonly string[]): void {
    for (const key of Object.keys(value)) {
      if (!known.includes(key)) {
        throw new OptionsError(option ? `${option}.${key}` : key, `is not a known option (known: ${known.join(', ')})`);
      }
    }
  },
};
