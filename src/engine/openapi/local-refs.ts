/**
 * Dereferences the in-document `$ref`s (`#/components/schemas/Pet`) of an OpenAPI document given
 * as an object (browser mode, or any host): a copy with every such `$ref` replaced by its target
 * (JSON Pointer, RFC 6901). A recursive schema keeps a `$ref` at the point where it would
 * recurse (Ajv then cannot resolve it and the engine reports the document as not loadable).
 * External references (`other.yaml#/…`) need the parser: give the document's path in Node.
 */
type Json = unknown;

function pointer(doc: Json, ref: string): Json {
  if (!ref.startsWith('#')) throw new Error(`external $ref "${ref}" needs the document's path (the parser resolves it in Node)`);
  let node: Json = doc;
  for (const raw of ref.slice(1).split('/').slice(1)) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, key)) throw new Error(`$ref "${ref}" points nowhere`);
    node = (node as Record<string, Json>)[key];
  }
  return node;
}

export function dereferenceLocal(doc: Json): Json {
  const walk = (node: Json, stack: readonly string[]): Json => {
    if (Array.isArray(node)) return node.map((n) => walk(n, stack));
    if (node === null || typeof node !== 'object') return node;
    const o = node as Record<string, Json>;
    if (typeof o.$ref === 'string') {
      if (stack.includes(o.$ref)) return o; // recursion: left as is
      return walk(pointer(doc, o.$ref), [...stack, o.$ref]);
    }
    const out: Record<string, Json> = {};
    for (const [k, v] of Object.entries(o)) out[k] = walk(v, stack);
    return out;
  };
  return walk(doc, []);
}
