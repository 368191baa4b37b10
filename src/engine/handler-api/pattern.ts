/**
 * Path patterns for REST and WebSocket handlers (Ant style, as the replaced plugin documented),
 * compiled once at start-up into one anchored RegExp each.
 *
 * Patterns are relative to the endpoint prefix (`/users/{id}` serves `/api/users/1`):
 *   - `users`            literal text (case-sensitive)
 *   - `{id}`             one segment (`[^/]+`), captured as `params.id`
 *   - `:id`              the same as `{id}` (Express, msw and json-server write it so); a `:`
 *                        starts a parameter at the start of a segment or after a character that
 *                        cannot be part of a name (`/flights/:from-:to`); elsewhere it is text
 *                        (`/items:batchGet`, `/at/12:30`)
 *   - `{id:\d+}`         a custom regex, captured as `params.id` (it matches the raw, still
 *                        percent-encoded text; keep it within one segment)
 *   - `*`                any characters within one segment (possibly none): `*.json`, `user-*`
 *   - `?`                exactly one character within a segment
 *   - `**`               a whole segment meaning any number of segments, including none
 * Unnamed `*` / `**` captures land in `params['0']`, `params['1']`, … in pattern order.
 * A trailing `/` on the request path is tolerated. Captured values are percent-decoded once;
 * malformed encoding is a 400.
 *
 * Overlaps are not ranked: the handler list is tried in array order, first match wins. Put the
 * specific patterns (`/users/me`) before the general ones (`/users/{id}`).
 */
import { HttpError } from '../../core/errors.js';
import { FORBIDDEN_KEYS } from '../../core/json-safety.js';
import { OptionsError } from '../../core/options.js';

export interface CompiledPattern {
  /** The pattern as written. */
  readonly source: string;
  /** Params for a matching path (below the prefix, still encoded), or null. Throws 400 on malformed encoding. */
  match(path: string): Record<string, string> | null;
}

interface Capture {
  name: string;
  /** Index of the capture group in the compiled RegExp. */
  group: number;
}

const NAME = /^[A-Za-z_$][\w$-]*$/;
/** `:name` parameters: a name starts with a letter, `_` or `$` and goes on with word characters. */
const NAME_START = /^[A-Za-z_$]$/;
const NAME_CHAR = /^[\w$]$/;
const ESCAPE = /[.*+?^${}()|[\]\\]/g;

/** Number of capturing groups in a regex source. */
function groupCount(source: string): number {
  return new RegExp(`(?:${source})|`).exec('')!.length - 1;
}

/** Reads a `{…}` token starting at `start` (the `{`); returns its inner text and the index after `}`. */
function readBraces(pattern: string, start: number, option: string): [string, number] {
  let depth = 0;
  for (let i = start; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return [pattern.slice(start + 1, i), i + 1];
  }
  throw new OptionsError(option, `has an unclosed "{" in ${JSON.stringify(pattern)}`);
}

/**
 * Compiles a pattern. `option` names it in start-up errors (`mock.handlers[2].pattern`).
 */
export function compilePattern(pattern: string, option = 'pattern'): CompiledPattern {
  const normalized = pattern.startsWith('/') ? pattern : `/${pattern}`;
  const captures: Capture[] = [];
  const names = new Set<string>();
  let group = 0;
  let unnamed = 0;
  let re = '^';
  let literalOnly = true;
  const addName = (name: string) => {
    if (!NAME.test(name) || FORBIDDEN_KEYS.has(name)) throw new OptionsError(option, `has an invalid parameter name ${JSON.stringify(name)} in ${JSON.stringify(pattern)}`);
    if (names.has(name)) throw new OptionsError(option, `uses the parameter ${name} twice in ${JSON.stringify(pattern)}`);
    names.add(name);
  };

  // Split into segments by `/`, but never inside braces (a regex may contain `/` or `{n}`).
  const segments: string[] = [];
  let current = '';
  for (let i = 1; i < normalized.length; ) {
    const c = normalized[i]!;
    if (c === '{') {
      const [, end] = readBraces(normalized, i, option);
      current += normalized.slice(i, end);
      i = end;
    } else if (c === '/') {
      segments.push(current);
      current = '';
      i++;
    } else {
      current += c;
      i++;
    }
  }
  segments.push(current);
  // `/users/` and `/users` mean the same pattern; `//` inside is one separator.
  const segs = segments.filter((s, i) => s !== '' || (i === 0 && segments.length === 1));

  for (const seg of segs) {
    if (seg === '**') {
      literalOnly = false;
      re += '(?:/(.*))?';
      captures.push({ name: String(unnamed++), group: ++group });
      continue;
    }
    re += '/';
    for (let i = 0; i < seg.length; ) {
      const c = seg[i]!;
      if (c === '{') {
        literalOnly = false;
        const [inner, end] = readBraces(seg, i, option);
        const colon = inner.indexOf(':');
        const name = (colon === -1 ? inner : inner.slice(0, colon)).trim();
        addName(name);
        let body = '[^/]+';
        if (colon !== -1) {
          body = inner.slice(colon + 1);
          try {
            new RegExp(body);
          } catch (err) {
            throw new OptionsError(option, `has an invalid regex for {${name}} in ${JSON.stringify(pattern)}: ${(err as Error).message}`);
          }
        }
        re += `(${body})`;
        captures.push({ name, group: ++group });
        group += groupCount(body);
        i = end;
      } else if (c === '*') {
        literalOnly = false;
        if (seg[i + 1] === '*') throw new OptionsError(option, `uses "**" inside a segment in ${JSON.stringify(pattern)}; "**" must be a whole segment (/files/**)`);
        re += '([^/]*)';
        captures.push({ name: String(unnamed++), group: ++group });
        i++;
      } else if (c === '?') {
        literalOnly = false;
        re += '[^/]';
        i++;
      } else if (c === ':' && NAME_START.test(seg[i + 1] ?? '') && (i === 0 || !NAME_CHAR.test(seg[i - 1]!))) {
        // `:name` (Express / msw style): the name runs while the characters can be part of one.
        literalOnly = false;
        let end = i + 2;
        while (end < seg.length && NAME_CHAR.test(seg[end]!)) end++;
        const name = seg.slice(i + 1, end);
        addName(name);
        re += '([^/]+?)';
        captures.push({ name, group: ++group });
        i = end;
      } else if (c === '}') {
        throw new OptionsError(option, `has an unmatched "}" in ${JSON.stringify(pattern)}`);
      } else {
        // Literal text, written as the URL parser sends it (`é` → `%C3%A9`, space → `%20`).
        const ch = String.fromCodePoint(seg.codePointAt(i)!);
        re += urlForm(ch).replace(ESCAPE, '\\$&');
        i += ch.length;
      }
    }
  }
  re += '/?$';

  if (literalOnly) {
    // Plain paths: string comparison, no RegExp.
    const exact = segs.length === 1 && segs[0] === '' ? '' : `/${segs.map((seg) => [...seg].map(urlForm).join('')).join('/')}`;
    return {
      source: pattern,
      match(path) {
        return path === exact || path === `${exact}/` ? {} : null;
      },
    };
  }

  const regex = new RegExp(re);
  return {
    source: pattern,
    match(path) {
      const m = regex.exec(path === '' ? '/' : path);
      if (!m) return null;
      const params: Record<string, string> = {};
      for (const { name, group: g } of captures) params[name] = decodeParam(m[g] ?? '', name);
      return params;
    },
  };
}

/** Characters the WHATWG URL parser percent-encodes in a path (controls, space, `"<>\``, `{}`, non-ASCII). */
const PATH_ENCODED = /[\u0000-\u0020"<>`{}\u007f-\u{10ffff}]/u;

function urlForm(ch: string): string {
  return PATH_ENCODED.test(ch) ? encodeURIComponent(ch) : ch;
}

/**
 * Whether a rule for `method` ("*" or a method; a GET rule takes HEAD too) and `pattern` takes a
 * request (fault rules, route overrides). Malformed percent-encoding: no (the handlers answer its 400).
 */
export function ruleTakes(method: string, pattern: CompiledPattern, requestMethod: string, subPath: string): boolean {
  if (method !== '*' && method !== requestMethod && !(requestMethod === 'HEAD' && method === 'GET')) return false;
  try {
    return pattern.match(subPath) !== null;
  } catch {
    return false;
  }
}

function decodeParam(raw: string, name: string): string {
  if (!raw.includes('%')) return raw;
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new HttpError(400, `Malformed percent-encoding in path parameter "${name}"`);
  }
}
