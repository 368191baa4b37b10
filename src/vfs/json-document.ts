/**
 * The content of a json-server `db.json` as the json-db driver holds it (json-db.ts): each
 * top-level key whose name can be a file is a slot (`<key>.json`), the other keys are kept as
 * they are, and the file's layout (indentation, one item per line: core/json-layout.ts) is kept
 * for its rewrites.
 */
import { detectLayout, formatJson, type JsonLayout } from '../core/json-layout.js';
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

export class JsonDocument {
  private constructor(
    /** The exposed keys, in document order. */
    readonly slots: Map<string, Slot>,
    /** The keys that are not valid file names, kept in the file untouched. */
    private readonly hidden: Map<string, unknown>,
    /** The file's layout (indented: 2 spaces when the file is compact). */
    private readonly layout: JsonLayout & { readonly indent: string | number },
    /** The next `version` of a slot (shared by every document of one driver, so it only grows). */
    private readonly nextVersion: () => number,
  ) {}

  static empty(nextVersion: () => number): JsonDocument {
    return new JsonDocument(new Map(), new Map(), { indent: 2 }, nextVersion);
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
    const layout = detectLayout(text);
    return new JsonDocument(slots, hidden, { ...layout, indent: layout.indent ?? 2 }, nextVersion);
  }

  /** Sets the value of a key (a new version of its file). */
  set(key: string, value: unknown): void {
    this.slots.set(key, { value, bytes: undefined, mtimeMs: Date.now(), version: this.nextVersion() });
  }

  /** The bytes `read` serves for a slot: its value in the document's indentation. */
  bytesOf(slot: Slot): Uint8Array {
    return (slot.bytes ??= encoder.encode(`${JSON.stringify(slot.value, null, this.layout.indent)}\n`));
  }

  /** The whole file's new text: the slots, then the kept keys, in the document's indentation. */
  text(): string {
    const out: Record<string, unknown> = {};
    for (const [k, s] of this.slots) out[k] = s.value;
    for (const [k, v] of this.hidden) if (!(k in out)) out[k] = v;
    return `${formatJson(out, this.layout)!}\n`;
  }
}
