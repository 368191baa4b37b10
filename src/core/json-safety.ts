/**
 * Prototype-pollution guard for JSON that arrives from clients.
 *
 * `JSON.parse` itself is safe (it creates an own property called `__proto__`), but the libraries
 * and merges that run afterwards (rfc6902, handlers' own code) assign keys with
 * `obj[key] = value`. So request JSON that will be merged,
 * patched or stored is checked here first and rejected with a 400 naming the key.
 */
import { HttpError } from './errors.js';
import { assertTextDepth, DEFAULT_MAX_JSON_DEPTH } from './json-depth.js';

export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** The JSON path of the first forbidden key in `value`, or `undefined`. Iterative: no stack overflow on deep input. */
export function findForbiddenKey(value: unknown, keys: ReadonlySet<string> = FORBIDDEN_KEYS): string | undefined {
  const stack: Array<[unknown, string]> = [[value, '']];
  while (stack.length) {
    const [v, at] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) stack.push([v[i], `${at}/${i}`]);
      continue;
    }
    for (const k of Object.keys(v)) {
      if (keys.has(k)) return `${at}/${k}`;
      stack.push([(v as Record<string, unknown>)[k], `${at}/${k}`]);
    }
  }
  return undefined;
}

/** Throws a 400 when `value` holds a forbidden key anywhere. */
export function assertNoForbiddenKeys(value: unknown, what = 'JSON body', keys: ReadonlySet<string> = FORBIDDEN_KEYS): void {
  const at = findForbiddenKey(value, keys);
  if (at !== undefined) {
    const key = at.slice(at.lastIndexOf('/') + 1);
    throw new HttpError(400, `Forbidden key "${key}" in ${what} (at ${at || '/'})`, { details: { pointer: at } });
  }
}

const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * Parses UTF-8 JSON bytes; malformed JSON, invalid UTF-8 or nesting deeper than `maxDepth`
 * (json-depth.ts) → HttpError 400.
 */
export function parseJsonBytes(bytes: Uint8Array, what = 'JSON body', maxDepth = DEFAULT_MAX_JSON_DEPTH): unknown {
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    throw new HttpError(400, `Malformed ${what}: not valid UTF-8`);
  }
  assertTextDepth(bytes, maxDepth, what);
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new HttpError(400, `Malformed ${what}: ${(err as Error).message}`);
  }
}
