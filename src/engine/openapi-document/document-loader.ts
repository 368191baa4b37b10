/**
 * How a document given by its path (or URL) becomes an object: the runtime's loader
 * (`openApiDocument` in the runtime object, src/engine/runtime.ts; Node's reads YAML or JSON files
 * and their references to other files, src/node/openapi-document.ts). A document given as an
 * object needs no loader (browser mode).
 */
import { readDocument, type DocumentModel } from './operations.js';
import { createDeref, type Deref } from './refs.js';
import { createRouter, type RouteMatch } from './routes.js';

export type DocumentLoader = (source: string, root: string | undefined) => Promise<Record<string, unknown>>;

export async function loadOpenApiDocument(source: string | object, root: string | undefined, loader: DocumentLoader | undefined): Promise<Record<string, unknown>> {
  if (typeof source !== 'string') return source as Record<string, unknown>;
  if (!loader) throw new Error(`the document "${source}" is a path: give the document object in this host`);
  return loader(source, root);
}

const shared = new WeakMap<object, Promise<Record<string, unknown>>>();

/** The document of one `mock.openapi` option, loaded once for every layer that reads it. */
export function sharedOpenApiDocument(option: object, source: string | object, root: string | undefined, loader: DocumentLoader | undefined): Promise<Record<string, unknown>> {
  let p = shared.get(option);
  if (!p) shared.set(option, (p = loadOpenApiDocument(source, root, loader)));
  return p;
}

export interface SharedModel {
  deref: Deref;
  model: DocumentModel;
  /** The path table (routes.ts), one for the request validator and the generated backend. */
  route: (method: string, subPath: string) => RouteMatch;
}

const models = new WeakMap<object, SharedModel>();

/** A document's `$ref` resolver, operations model and path table, made once for every layer that uses them. */
export function documentModel(doc: Record<string, unknown>): SharedModel {
  let m = models.get(doc);
  if (!m) {
    const deref = createDeref(doc);
    const model = readDocument(doc, deref);
    models.set(doc, (m = { deref, model, route: createRouter(model.operations) }));
  }
  return m;
}
