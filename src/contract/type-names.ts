/**
 * TypeScript names for collections, objects and schemas: singular PascalCase for a collection
 * (`todos` → `Todo`, `v1/blog-posts` → `V1BlogPost`, through the store's `singular`), PascalCase
 * for an object (`profile` → `Profile`) and a schema (`new-pet` → `NewPet`); a name already taken
 * (or reserved by the generated file) gets a number.
 */
import { singular } from '../engine/store/plurals.js';

export function pascalCase(name: string): string {
  const words = name.split(/[^A-Za-z0-9]+/).filter(Boolean);
  const out = words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');
  if (out === '') return 'Item';
  return /^[0-9]/.test(out) ? `T${out}` : out;
}

/** `todos` → `Todo`; the last segment of a nested name is made singular (`v1/posts` → `V1Post`). */
export function collectionTypeName(collection: string): string {
  const slash = collection.lastIndexOf('/');
  return pascalCase(`${collection.slice(0, slash + 1)}${singular(collection.slice(slash + 1))}`);
}

/** Hands out unique names. */
export function nameRegistry(reserved: Iterable<string> = []): (wanted: string) => string {
  const taken = new Set(reserved);
  return (wanted) => {
    let name = wanted;
    for (let n = 2; taken.has(name); n++) name = `${wanted}${n}`;
    taken.add(name);
    return name;
  };
}

/** A property key as TypeScript writes it (`id`, `'first-name'`). */
export function propertyKey(key: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? key : JSON.stringify(key);
}
