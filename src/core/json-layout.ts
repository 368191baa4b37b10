/**
 * THE rule for how a JSON file is written back: it keeps the layout it was found in, as far as
 * that can be detected. A compact file stays compact; a pretty one keeps its indentation (spaces or
 * a tab, as its second line starts); a hand-written file with one item per line
 * (`[\n  { "id": 1, "title": "a" },\n …]`, spaced or tight) keeps one item per line, for the items
 * of a top-level array (a mocks folder's `posts.json`) and of the arrays under a top-level object's
 * keys (a json-server `db.json`). Used by file mode's writes (engine/fs), the collection store's
 * and the json-db driver's (vfs/json-document.ts), so a first write never reformats a file.
 */

export interface JsonLayout {
  /** `undefined` (compact), a number of spaces, or a tab. */
  readonly indent: string | number | undefined;
  /** One item per line, `{ "a": 1 }` (spaced) or `{"a":1}` (tight), when the file has that layout. */
  readonly itemLines?: { readonly spaced: boolean };
}

export const COMPACT_JSON: JsonLayout = Object.freeze({ indent: undefined });

const decoder = /* @__PURE__ */ new TextDecoder();
const encoder = /* @__PURE__ */ new TextEncoder();
/** How much of a file's start is read to find its first item line. */
const HEAD = 64 * 1024;

/** The indentation of a JSON text: `undefined` (compact), a number of spaces, or a tab. */
function indentOf(bytes: Uint8Array): string | number | undefined {
  const nl = bytes.indexOf(10);
  if (nl === -1) return undefined;
  const i = nl + 1;
  if (bytes[i] === 9) return '\t';
  let n = 0;
  while (bytes[i + n] === 32) n++;
  return n > 0 ? n : undefined;
}

/** The first array item of the file on a line of its own, whole (a JSON object). */
function itemLinesOf(head: string): JsonLayout['itemLines'] {
  const m = /\[\s*\n[ \t]+(\{[^\n]*\})\s*(,|\n)/.exec(head);
  if (!m) return undefined;
  try {
    JSON.parse(m[1]!);
  } catch {
    return undefined; // not a whole item on the line
  }
  return { spaced: /":\s/.test(m[1]!) };
}

/** The layout of a JSON file's text (bytes or string). */
export function detectLayout(file: Uint8Array | string): JsonLayout {
  const bytes = typeof file === 'string' ? encoder.encode(file.slice(0, HEAD)) : file;
  const indent = indentOf(bytes);
  if (indent === undefined) return COMPACT_JSON;
  const head = typeof file === 'string' ? file.slice(0, HEAD) : decoder.decode(bytes.subarray(0, HEAD));
  const itemLines = itemLinesOf(head);
  return itemLines ? { indent, itemLines } : { indent };
}

/** A value on one line, spaced (`{ "a": 1, "b": [1, 2] }`) or tight (`{"a":1,"b":[1,2]}`). */
function oneLine(value: unknown, spaced: boolean): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined || typeof v === 'function' ? 'null' : oneLine(v, spaced))).join(spaced ? ', ' : ',')}]`;
  const parts = Object.entries(value).filter(([, v]) => v !== undefined && typeof v !== 'function').map(([k, v]) => `${JSON.stringify(k)}:${spaced ? ' ' : ''}${oneLine(v, spaced)}`);
  if (parts.length === 0) return '{}';
  return spaced ? `{ ${parts.join(', ')} }` : `{${parts.join(',')}}`;
}

const isItems = (v: unknown): v is object[] => Array.isArray(v) && v.length > 0 && v.every((i) => i !== null && typeof i === 'object' && !Array.isArray(i));

/** An array of objects one item per line, its lines at `pad` + one indent, its `]` at `pad`. */
function itemsText(items: object[], ind: string, pad: string, spaced: boolean): string {
  return `[\n${items.map((i) => `${pad}${ind}${oneLine(i, spaced)}`).join(',\n')}\n${pad}]`;
}

/** The JSON text of `value` in `layout` (no final newline). */
export function formatJson(value: unknown, layout: JsonLayout): string | undefined {
  const { indent, itemLines } = layout;
  if (itemLines === undefined || indent === undefined || value === null || typeof value !== 'object') return JSON.stringify(value, null, indent) as string | undefined;
  const ind = typeof indent === 'number' ? ' '.repeat(indent) : indent;
  if (Array.isArray(value)) return isItems(value) ? itemsText(value, ind, '', itemLines.spaced) : JSON.stringify(value, null, indent);
  const entries = Object.entries(value).filter(([, v]) => v !== undefined && typeof v !== 'function');
  if (entries.length === 0) return '{}';
  const entry = ([k, v]: [string, unknown]) => `${ind}${JSON.stringify(k)}: ${isItems(v) ? itemsText(v, ind, ind, itemLines.spaced) : JSON.stringify(v, null, indent).replace(/\n/g, `\n${ind}`)}`;
  return `{\n${entries.map(entry).join(',\n')}\n}`;
}

/** A file's bytes: `value` in `layout`, a final newline when it is not compact. */
export function serializeJson(value: unknown, layout: JsonLayout): Uint8Array {
  const text = formatJson(value, layout);
  // Backstop: never turn "no value" into an empty file.
  if (text === undefined) throw new TypeError('Cannot store a document without a JSON value');
  return encoder.encode(layout.indent !== undefined ? `${text}\n` : text);
}
