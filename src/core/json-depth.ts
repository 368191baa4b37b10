/**
 * JSON nesting depth: THE place that measures it, for every engine.
 *
 * `JSON.parse` copes with any depth, but most code that runs afterwards is recursive
 * (`JSON.stringify`, merge patches, JSON Patch, deep copies): a document nested a few thousand
 * levels deep overflows the stack there, which surfaces as a 500 or as an engine-internal message
 * ("Maximum call stack size exceeded"). So depth is capped where JSON enters: request bodies
 * (`parseJsonBytes`) and files read from disk (the mock API's file cache).
 *
 * Depth counts nested containers: `1` and `"x"` are 0 deep, `{}` and `[1]` are 1, `{"a":[{}]}`
 * is 3. A limit of N accepts N levels and refuses N + 1.
 */
import { HttpError } from './errors.js';

/** Default cap (the mock API's `maxJsonDepth`; far beyond any real document, far below a stack overflow). */
export const DEFAULT_MAX_JSON_DEPTH = 256;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

/**
 * Whether the JSON text in `bytes` (UTF-8) nests deeper than `maxDepth` levels. One pass over
 * the bytes, before parsing: brackets inside strings do not count. Text shorter than the limit
 * cannot exceed it and is not scanned. Malformed text is measured as far as it goes (parsing
 * refuses it anyway).
 */
export function textExceedsDepth(bytes: Uint8Array, maxDepth: number): boolean {
  const n = bytes.length;
  if (n <= maxDepth) return false;
  let depth = 0;
  for (let i = 0; i < n; i++) {
    const b = bytes[i]!;
    if (b === QUOTE) {
      // Skip the string: a backslash escapes the next byte (UTF-8 continuation bytes are never ASCII).
      for (i++; i < n; i++) {
        const c = bytes[i]!;
        if (c === BACKSLASH) i++;
        else if (c === QUOTE) break;
      }
    } else if (b === OPEN_BRACKET || b === OPEN_BRACE) {
      if (++depth > maxDepth) return true;
    } else if (b === CLOSE_BRACKET || b === CLOSE_BRACE) {
      depth--;
    }
  }
  return false;
}

/**
 * Whether a parsed value nests objects/arrays deeper than `maxDepth` levels. Iterative, so it
 * answers for values that would overflow the stack of the recursive code that runs later.
 */
export function exceedsDepth(value: unknown, maxDepth: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth >= maxDepth) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return false;
}

/** The text of the refusal (also used for files on disk, in warnings). */
export function depthMessage(what: string, maxDepth: number): string {
  return `${what} nests deeper than the limit of ${maxDepth} levels`;
}

/** The 400 for a JSON document nested deeper than the limit. */
export function tooDeep(what: string, maxDepth: number): HttpError {
  return new HttpError(400, depthMessage(what, maxDepth), { details: { limit: maxDepth } });
}

/** Throws the 400 when the JSON text in `bytes` nests deeper than `maxDepth`. */
export function assertTextDepth(bytes: Uint8Array, maxDepth: number, what = 'JSON body'): void {
  if (textExceedsDepth(bytes, maxDepth)) throw tooDeep(what, maxDepth);
}
