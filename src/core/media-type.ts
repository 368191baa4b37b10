/**
 * Content types: the one module that maps file names to media types and parses Content-Type.
 * The table is mrmime's (maintained, ~2 KB, works in browsers); text-like types get
 * `charset=utf-8`.
 */
import { lookup, mimes } from 'mrmime';

const FALLBACK = 'application/octet-stream';
/** Stream formats mrmime does not list (recorded streams, engine/streams/). */
const STREAM_TYPES: Readonly<Record<string, string>> = { sse: 'text/event-stream', ndjson: 'application/x-ndjson' };

/** The Content-Type of every JSON answer the engines build (bodies, errors, pages, ingest acks). */
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';
const TEXTUAL = /^(text\/|application\/(json|x-ndjson|ld\+json|xml|javascript|ecmascript|x-www-form-urlencoded|graphql|manifest\+json|geo\+json|yaml|x-yaml)|image\/svg\+xml)|\+json$|\+xml$/;

/** Content-Type header value for a file path (`users.json` → `application/json; charset=utf-8`). */
export function contentTypeFor(path: string): string {
  const type = lookup(path) ?? STREAM_TYPES[path.slice(path.lastIndexOf('.') + 1).toLowerCase()] ?? FALLBACK;
  return TEXTUAL.test(type) ? `${type}; charset=utf-8` : type;
}

let reverse: Map<string, string> | undefined;
/** File extension (without dot) for a media type, or `undefined` (`image/png` → `png`). */
export function extensionFor(mediaType: string): string | undefined {
  if (!reverse) {
    reverse = new Map();
    for (const [ext, type] of Object.entries(mimes)) if (!reverse.has(type)) reverse.set(type, ext);
    // Prefer the common spellings where mrmime lists several extensions for one type.
    for (const [ext, type] of Object.entries(STREAM_TYPES)) reverse.set(type, ext);
    for (const [type, ext] of [['image/jpeg', 'jpg'], ['text/plain', 'txt'], ['text/html', 'html'], ['application/json', 'json'], ['text/javascript', 'js'], ['application/xml', 'xml'], ['text/xml', 'xml']] as const) {
      reverse.set(type, ext);
    }
  }
  return reverse.get(parseMediaType(mediaType).type);
}

export interface MediaType {
  /** Lower-cased `type/subtype`, or `''` when absent. */
  type: string;
  /** Lower-cased parameter names; values unquoted. */
  params: Record<string, string>;
}

/** Parses a Content-Type header (`application/json; charset=UTF-8`). Never throws. */
export function parseMediaType(header: string | null | undefined): MediaType {
  if (!header) return { type: '', params: {} };
  const parts = header.split(';');
  const type = parts[0]!.trim().toLowerCase();
  const params: Record<string, string> = {};
  for (let i = 1; i < parts.length; i++) {
    const p = parts[i]!;
    const eq = p.indexOf('=');
    if (eq === -1) continue;
    let value = p.slice(eq + 1).trim();
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1).replace(/\\(.)/g, '$1');
    params[p.slice(0, eq).trim().toLowerCase()] = value;
  }
  return { type, params };
}

/** THE rule for a text media type (`type` as parseMediaType gives it): kept as text, sent with a charset. */
export function isTextMediaType(type: string): boolean {
  return TEXTUAL.test(type);
}

/** `application/json` and any `+json` type. */
export function isJsonMediaType(type: string): boolean {
  return type === 'application/json' || type.endsWith('+json');
}

/**
 * THE rule for the streamed media types (each event or line goes out, and is recorded, as it
 * comes): `sse` for `text/event-stream`, `ndjson` for the line-delimited JSON types. `type` as
 * parseMediaType gives it.
 */
export function streamedFormatOf(type: string): 'sse' | 'ndjson' | undefined {
  if (type === 'text/event-stream') return 'sse';
  if (type === 'application/x-ndjson' || type === 'application/ndjson' || type === 'application/jsonl' || type === 'application/json-seq') return 'ndjson';
  return undefined;
}

/** Whether a file path holds JSON by its extension. */
export function isJsonPath(path: string): boolean {
  return path.toLowerCase().endsWith('.json');
}
