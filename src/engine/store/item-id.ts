/**
 * Item ids of a collection (a JSON array of objects): matching a URL segment to an item, an
 * index from id to position, and new ids for POST.
 *
 * Ids are compared as the stored type would print: the URL segment `1` matches the number `1`
 * and the string `"1"` (json-server's rule). Only string and number ids count; items without
 * one (or with an object id) cannot be addressed. When two items share an id, the first wins.
 */
export type IdKey = string;

/** The id of an item as a URL segment would name it, or undefined. */
export function idKeyOf(item: unknown, idField: string): IdKey | undefined {
  if (item === null || typeof item !== 'object' || Array.isArray(item)) return undefined;
  const v = (item as Record<string, unknown>)[idField];
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : undefined;
  return typeof v === 'string' ? v : undefined;
}

/**
 * Id → position, built on first use. Shared by the arrays of successive versions of one
 * collection while positions stay valid (an item replaced in place, items appended): every hit
 * is checked against the array asked about, and a miss on a stale index rebuilds it.
 *
 * A miss costs nothing more when the map is known to be exact: built from (or carried over to)
 * the very array asked about, which has since grown only by the appends announced here. Then an
 * id the map lacks is in no item, and a POST's "is this id taken?" or a GET of a missing item does
 * not rescan the collection.
 */
export class IdIndex {
  private map: Map<IdKey, number> | undefined;
  /** The array the map is exact for, and its length then (undefined: not known to be exact). */
  private exactFor: readonly unknown[] | undefined;
  private exactLength = 0;
  constructor(private readonly idField: string) {}

  private build(items: readonly unknown[]): Map<IdKey, number> {
    const m = new Map<IdKey, number>();
    for (let i = 0; i < items.length; i++) {
      const k = idKeyOf(items[i], this.idField);
      if (k !== undefined && !m.has(k)) m.set(k, i);
    }
    this.exactFor = items;
    this.exactLength = items.length;
    return (this.map = m);
  }

  /** Position of the item with id `key` in `items`, or -1. */
  find(items: readonly unknown[], key: IdKey): number {
    const m = this.map ?? this.build(items);
    const i = m.get(key);
    if (i !== undefined && i < items.length && idKeyOf(items[i], this.idField) === key) return i;
    if (i === undefined && this.exactFor === items && this.exactLength === items.length) return -1;
    // Stale (or a first-wins shadow that moved): rebuild once.
    const again = this.build(items).get(key);
    return again === undefined ? -1 : again;
  }

  /** An item was appended at `position` (of the array the index is exact for, when it is). */
  appended(key: IdKey, position: number): void {
    if (this.map && !this.map.has(key)) this.map.set(key, position);
    if (position === this.exactLength) this.exactLength++;
    else this.exactFor = undefined;
  }

  /** `copy` is a copy of `items` (same ids at the same positions): exact for one, exact for the other. */
  copied(items: readonly unknown[], copy: readonly unknown[]): void {
    if (this.exactFor === items && this.exactLength === items.length && copy.length === items.length) this.exactFor = copy;
  }

  /** Positions moved (an item was removed). */
  invalidate(): void {
    this.map = undefined;
    this.exactFor = undefined;
  }
}

const indexes = new WeakMap<readonly unknown[], IdIndex>();

/** The index of an array (one per array object, created on first use). */
export function indexOf(items: readonly unknown[], idField: string): IdIndex {
  let ix = indexes.get(items);
  if (!ix) indexes.set(items, (ix = new IdIndex(idField)));
  return ix;
}

/** Hands an index on to the next version of the array (positions still valid). */
export function carryIndex(from: readonly unknown[], to: readonly unknown[], ix: IdIndex): void {
  indexes.set(to, ix);
  void from;
}

function uuid(): string {
  const c = (globalThis as { crypto?: { randomUUID?: () => string } }).crypto;
  if (c?.randomUUID) return c.randomUUID();
  // Outside secure contexts: RFC 4122 v4 layout from Math.random (ids for mocks, not secrets).
  return 'xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx'.replace(/[xy]/g, (ch) => {
    const r = (Math.random() * 16) | 0;
    return (ch === 'x' ? r : (r & 0x3) | 0x8).toString(16);
  });
}

/** A string id that reads as the same integer in text (`"2"`): ids match as text, so a new number must pass it too. */
const INTEGER_TEXT = /^(?:0|[1-9]\d{0,14})$/;

/**
 * A new id for an item appended to `items`: numbers when the collection's ids are numbers (or it
 * has none yet): the largest + 1, past integer ids stored as text too (`[1, "2"]` → 3, never a
 * `2` that would clash with `"2"`); a UUID when they are strings.
 */
export function nextId(items: readonly unknown[], idField: string): number | string {
  let max = 0;
  let strings = 0;
  let numbers = 0;
  for (const item of items) {
    if (item === null || typeof item !== 'object') continue;
    const v = (item as Record<string, unknown>)[idField];
    if (typeof v === 'number' && Number.isFinite(v)) {
      numbers++;
      if (v > max) max = v;
    } else if (typeof v === 'string') {
      strings++;
      if (INTEGER_TEXT.test(v) && Number(v) > max) max = Number(v);
    }
  }
  return strings > numbers ? uuid() : Math.floor(max) + 1;
}
