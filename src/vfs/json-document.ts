/**
 * The content of a json-server `db.json` as the json-db driver holds it (json-db.ts): each
 * top-level key whose name can be a file is a slot (`<key>.json`), the other keys are kept as
 * they are, and the file's indentation (and a one-item-per-line layout) is kept for its rewrites.
 */
import { VfsError } from './types.js';

export interface Slot {
  value: unknown;
  /** The serialisation served by `read` (built on demand). */
  bytes: Uint8Array | undefined;
  mtimeMs: number;
  /** Bumped on every change: the `ino` of the virtual file. */
  version: number;
}

const encoder = /* @__PURE__ */ new TextEncoder();

/** Whether a top-level key can be shown as the file `<key>.json` at the root. */
export function validKey(key: string): boolean {
  if (key === '' || key === '.' || key === '..' || key.length > 200) return false;
  return !/[\\/\0]/.test(key);
}

function indentOf(text: string): string | number {
  const m = /\n([ \t]+)/.exec(text);
  if (!m) return 2;
  return m[1]![0] === '\t' ? '\t' : m[1]!.length;
}

/**
 * A hand-written layout with one item per line (`[\n    { "id": 1, "title": "a" },\n …]`): the
 * first array item of the file on a line of its own, whole. Rewrites keep it (spaced `{ "a": 1 }`
 * or tight `{"a":1}` as the file writes it), so the first write does not reformat the file.
 */
export interface ItemLines {
  readonly spaced: boolean;
}

function itemLinesOf(text: string): ItemLines | undefined {
  const m = /\[\s*\n[ \t]+(\{[^\n]*\})\s*(,|\n)/.exec(text);
  if (!m) return undefined;
  try {
    JSON.parse(m[1]!);
  } catch {
    return undefined; // not a whole item on the line
  }
  return { spaced: /":\s/.test(m[1]!) };
}

/** A value on one line, spaced (`{ "a": 1, "b": [1, 2] }`) or tight (`{"a":1,"b":[1,2]}`). */
function oneLine(value: unknown, spaced: boolean): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((v) => oneLine(v, spaced)).join(spaced ? ', ' : ',')}]`;
  const parts = Object.entries(value).filter(([, v]) => v !== undefined && typeof v !== 'function').map(([k, v]) => `${JSON.stringify(k)}:${spaced ? ' ' : ''}${oneLine(v, spaced)}`);
  if (parts.length === 0) return '{}';
  return spaced ? `{ ${parts.join(', ')} }` : `{${parts.join(',')}}`;
}

export class JsonDocument {
  private constructor(
    /** The exposed keys, in document order. */
    readonly slots: Map<string, Slot>,
    /** The keys that are not valid file names, kept in the file untouched. */
    private readonly hidden: Map<string, unknown>,
    private readonly indent: string | number,
    /** The next `version` of a slot (shared by every document of one driver, so it only grows). */
    private readonly nextVersion: () => number,
    /** The file's one-item-per-line layout, when it has one. */
    private readonly itemLines?: ItemLines,
  ) {}

  static empty(nextVersion: () => number): JsonDocument {
    return new JsonDocument(new Map(), new Map(), 2, nextVersion);
  }

  /**
   * Parses the file's text (an empty text is an empty document). Throws a VfsError EINVAL when
   * it is not a JSON object, a SyntaxError when it is not JSON.
   */
  static parse(text: string, filePath: string, nextVersion: () => number): JsonDocument {
    const value: unknown = text.trim() === '' ? {} : JSON.parse(text);
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      throw new VfsError('EINVAL', filePath, `${filePath} must hold a JSON object whose keys are the resources (got ${Array.isArray(value) ? 'an array' : typeof value})`);
    }
    const slots = new Map<string, Slot>();
    const hidden = new Map<string, unknown>();
    const t = Date.now();
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      if (validKey(k)) slots.set(k, { value: v, bytes: undefined, mtimeMs: t, version: nextVersion() });
      else hidden.set(k, v);
    }
    return new JsonDocument(slots, hidden, indentOf(text), nextVersion, itemLinesOf(text));
  }

  /** Sets the value of a key (a new version of its file). */
  set(key: string, value: unknown): void {
    this.slots.set(key, { value, bytes: undefined, mtimeMs: Date.now(), version: this.nextVersion() });
  }

  /** The bytes `read` serves for a slot: its value in the document's indentation. */
  bytesOf(slot: Slot): Uint8Array {
    return (slot.bytes ??= encoder.encode(`${JSON.stringify(slot.value, null, this.indent)}\n`));
  }

  /** The whole file's new text: the slots, then the kept keys, in the document's indentation. */
  text(): string {
    const out: Record<string, unknown> = {};
    for (const [k, s] of this.slots) out[k] = s.value;
    for (const [k, v] of this.hidden) if (!(k in out)) out[k] = v;
    const lines = this.itemLines;
    if (lines === undefined || Object.keys(out).length === 0) return `${JSON.stringify(out, null, this.indent)}\n`;
    // The file's own layout: arrays of objects one item per line, the rest as JSON.stringify indents it.
    const ind = typeof this.indent === 'number' ? ' '.repeat(this.indent) : this.indent;
    const entry = ([k, v]: [string, unknown]) => {
      const items = Array.isArray(v) && v.length > 0 && v.every((i) => i !== null && typeof i === 'object' && !Array.isArray(i));
      const text = items ? `[\n${(v as unknown[]).map((i) => `${ind}${ind}${oneLine(i, lines.spaced)}`).join(',\n')}\n${ind}]` : JSON.stringify(v, null, this.indent).replace(/\n/g, `\n${ind}`);
      return `${ind}${JSON.stringify(k)}: ${text}`;
    };
    return `{\n${Object.entries(out).filter(([, v]) => v !== undefined).map(entry).join(',\n')}\n}\n`;
  }
}
