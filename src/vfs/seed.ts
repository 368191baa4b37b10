/**
 * Seed trees: `{ 'users/1.json': { id: 1 }, 'notes/readme.txt': 'text', 'logo.png': bytes }`.
 * Objects and arrays are stored as pretty JSON, strings as UTF-8 text, Uint8Array as bytes.
 */
import { normalizeVfsPath } from './path.js';

export type SeedValue = Uint8Array | ArrayBuffer | string | number | boolean | null | object;
export type SeedTree = Record<string, SeedValue>;

const encoder = new TextEncoder();

export function encodeSeedValue(value: SeedValue): Uint8Array {
  if (value instanceof Uint8Array) return value;
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  if (typeof value === 'string') return encoder.encode(value);
  return encoder.encode(JSON.stringify(value, null, 2));
}

/** Seed entries as normalised `[path, bytes]`, in key order. Rejects unsafe paths. */
export function seedEntries(tree: SeedTree | undefined): Array<[string, Uint8Array]> {
  if (!tree) return [];
  return Object.entries(tree).map(([path, value]) => [normalizeVfsPath(path), ownRealm(encodeSeedValue(value))]);
}

/**
 * Bytes to store. Always a `Uint8Array` of this realm: under vitest's and jest's jsdom
 * environments the global typed arrays are jsdom's while `TextEncoder`, `Request` bodies and
 * Node's `Buffer` hand out Node's, and a store checking `instanceof Uint8Array` (memfs) would
 * stringify a foreign one ("123,34,…"). Re-viewing the same memory costs no copy.
 */
export function toBytes(data: Uint8Array | string): Uint8Array {
  return ownRealm(typeof data === 'string' ? encoder.encode(data) : data);
}

function ownRealm(bytes: Uint8Array): Uint8Array {
  if (bytes instanceof Uint8Array) return bytes;
  const view = bytes as ArrayBufferView;
  return new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
}

/** Per-file content digests of a seed (`{ path: digest }`): what a database was seeded from. */
export type SeedDigest = Record<string, string>;

/**
 * Digests of seed entries: FNV-1a (32 bit) of each file's bytes plus its length, as hex. Cheap,
 * synchronous (usable before a transaction without awaiting anything else) and enough to tell
 * a changed seed file from an unchanged one; not a security hash.
 */
export function seedDigest(entries: ReadonlyArray<readonly [string, Uint8Array]>): SeedDigest {
  const out: SeedDigest = {};
  for (const [path, bytes] of entries) {
    let h = 0x811c9dc5;
    for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
    out[path] = `${(h >>> 0).toString(16)}-${bytes.length.toString(16)}`;
  }
  return out;
}

/** Paths added, removed or changed between two digests, sorted (empty when the seeds are equal). */
export function seedChanges(before: SeedDigest, after: SeedDigest): string[] {
  const changed = new Set<string>();
  for (const path of Object.keys(after)) if (before[path] !== after[path]) changed.add(path);
  for (const path of Object.keys(before)) if (!(path in after)) changed.add(path);
  return [...changed].sort();
}
