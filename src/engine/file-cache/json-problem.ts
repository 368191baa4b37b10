/**
 * Why a `.json` file cannot be used as JSON, told once per file version.
 * Such a file is still served as stored (content type by extension, as the spec says); the
 * warning tells the user why the app chokes on it: the path relative to fsDir, and for malformed
 * text the line and column of the first error.
 *
 * Off the hot path: the file cache calls the reporter only when a file enters the cache and turns
 * out unusable, and the error is located only then (JSON.parse's own messages carry a position in
 * some engines and not in others, so the text is scanned here, the same in every host).
 */
import { depthMessage } from '../../core/json-depth.js';
import type { Logger } from '../../core/logger.js';
import type { VfsStat } from '../../vfs/types.js';

/** What is wrong with a `.json` file (set by the cache when it loads one). */
export type JsonProblem = 'malformed' | 'too-deep';

export interface JsonErrorAt {
  /** Offset in UTF-16 code units. */
  offset: number;
  /** 1-based. */
  line: number;
  /** 1-based, in characters from the start of the line. */
  column: number;
  reason: string;
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const HEX4 = /[0-9a-fA-F]{4}/y;

/** The first syntax error of `text` (RFC 8259), or undefined when it is valid JSON. Iterative. */
export function locateJsonError(text: string): JsonErrorAt | undefined {
  const n = text.length;
  let i = 0;
  const open: number[] = []; // char codes of the open containers: 91 '[' or 123 '{'
  const ws = (): void => {
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 32 || c === 9 || c === 10 || c === 13) i++;
      else break;
    }
  };
  /** At a '"': skips the string; a reason when it is invalid. */
  const string = (): string | undefined => {
    for (i++; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c === 34) {
        i++;
        return undefined;
      }
      if (c < 0x20) return 'control character in a string (escape it)';
      if (c === 92) {
        const e = text[i + 1];
        if (e === 'u') {
          HEX4.lastIndex = i + 2;
          if (!HEX4.test(text)) return 'invalid \\u escape';
          i += 5;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) i++;
        else return 'invalid escape in a string';
      }
    }
    return 'unterminated string';
  };
  /** Expects a property name and its ':' (inside an object). */
  const key = (): string | undefined => {
    ws();
    if (text.charCodeAt(i) !== 34) return 'expected a property name in double quotes';
    const bad = string();
    if (bad) return bad;
    ws();
    if (text.charCodeAt(i) !== 58) return "expected ':' after a property name";
    i++;
    return undefined;
  };
  const at = (reason: string): JsonErrorAt => position(text, Math.min(i, n), reason);

  for (;;) {
    // A value is expected at i.
    ws();
    if (i >= n) return at('unexpected end of the text');
    const c = text.charCodeAt(i);
    let closed = false;
    if (c === 91 || c === 123) {
      i++;
      ws();
      if (text.charCodeAt(i) === (c === 91 ? 93 : 125)) {
        i++;
        closed = true;
      } else {
        open.push(c);
        if (c === 123) {
          const bad = key();
          if (bad) return at(bad);
        }
        continue;
      }
    }
    if (!closed) {
      if (c === 34) {
        const bad = string();
        if (bad) return at(bad);
      } else if (text.startsWith('true', i) || text.startsWith('null', i)) i += 4;
      else if (text.startsWith('false', i)) i += 5;
      else {
        NUMBER.lastIndex = i;
        if (!NUMBER.test(text)) return at(`unexpected character ${JSON.stringify(text[i])}`);
        i = NUMBER.lastIndex;
      }
    }
    // After a value: a separator, the end of containers, or the end of the text.
    for (;;) {
      ws();
      const top = open[open.length - 1];
      if (top === undefined) return i < n ? at('unexpected text after the JSON value') : undefined;
      if (i >= n) return at('unexpected end of the text');
      const d = text.charCodeAt(i);
      if (d === 44) {
        i++;
        if (top === 123) {
          const bad = key();
          if (bad) return at(bad);
        }
        break;
      }
      if (d === (top === 91 ? 93 : 125)) {
        i++;
        open.pop();
        continue;
      }
      return at(top === 91 ? "expected ',' or ']' after an array element" : "expected ',' or '}' after a property value");
    }
  }
}

function position(text: string, offset: number, reason: string): JsonErrorAt {
  let line = 1;
  let start = 0;
  for (let k = text.indexOf('\n'); k !== -1 && k < offset; k = text.indexOf('\n', k + 1)) {
    line++;
    start = k + 1;
  }
  return { offset, line, column: offset - start + 1, reason };
}

const decoder = new TextDecoder();
const MAX_REMEMBERED = 10_000;

/**
 * A reporter for the file cache: one warning per file version (path, size, mtime, inode), the
 * path relative to fsDir. `fsDir` is the mocks folder inside the Vfs ('' = root).
 */
export function jsonProblemReporter(logger: Logger, fsDir: string, maxDepth: number): (path: string, stat: VfsStat, bytes: Uint8Array, problem: JsonProblem) => void {
  const told = new Map<string, string>();
  return (path, stat, bytes, problem) => {
    const version = `${stat.size}:${stat.mtimeMs}:${stat.ino ?? ''}`;
    if (told.get(path) === version) return;
    if (told.size >= MAX_REMEMBERED) told.clear();
    told.set(path, version);
    const rel = fsDir && path.startsWith(`${fsDir}/`) ? path.slice(fsDir.length + 1) : path;
    if (problem === 'too-deep') {
      logger.warn(`${rel}: ${depthMessage('the JSON', maxDepth)} (option maxJsonDepth); served as stored, but not queried or patched`);
      return;
    }
    const text = decoder.decode(bytes);
    const err = locateJsonError(text);
    const where = err ? `line ${err.line}, column ${err.column}: ${err.reason}` : 'not valid JSON';
    logger.warn(`${rel} is not valid JSON (${where}); served as stored`);
  };
}
