/**
 * `$ref`s of a document followed on demand (never a dereferenced copy: a 13 MB document stays
 * one object, and a recursive schema is just a loop the generator bounds). Local references
 * (`#/components/schemas/Pet`, RFC 6901 pointers); the Node loader turns references to other
 * files into local ones before the document gets here.
 */
import { isObj } from '../../core/json-object.js';
type Obj = Record<string, unknown>;

export type Deref = (node: unknown) => unknown;

/** A resolver for `doc`: follows `$ref` chains (bounded); an unresolvable one gives `{}`. */
export function createDeref(doc: unknown): Deref {
  const cache = new Map<string, unknown>();
  const pointer = (ref: string): unknown => {
    if (cache.has(ref)) return cache.get(ref);
    let node: unknown = doc;
    if (!ref.startsWith('#')) node = undefined;
    else {
      for (const raw of ref.slice(1).split('/').slice(1)) {
        let key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
        try {
          key = decodeURIComponent(key);
        } catch {
          // a key with a stray % stays as written
        }
        if (!isObj(node) && !Array.isArray(node)) {
          node = undefined;
          break;
        }
        node = Object.hasOwn(node, key) ? (node as Obj)[key] : undefined;
      }
    }
    cache.set(ref, node);
    return node;
  };
  return (node) => {
    let n = node;
    for (let i = 0; i < 32 && isObj(n) && typeof n.$ref === 'string'; i++) {
      const target = pointer(n.$ref);
      n = target === undefined ? {} : target;
    }
    return n;
  };
}
