/**
 * The generated population of a document's collections as data (what `mockyard import` writes
 * as collection files): for every collection that is not scoped by a parent, its items as the
 * backend serves them at start (same seed, same items), and the file it belongs in
 * (`/store/order` → `store/order.json`, the json-server layout: a list file whose items are
 * answered by id with the collections preset).
 */
import { requestPathToVfs } from '../../vfs/path.js';
import { loadFaker } from '../schema-faker/faker.js';
import { readDocument } from '../openapi-document/operations.js';
import { DEFAULT_COUNT, DEFAULT_SEED } from './options.js';
import { createDeref } from '../openapi-document/refs.js';
import { inferRoles, type Collection } from './resources.js';
import { createState } from './state.js';

export interface PopulationFile {
  collection: Collection;
  /** `GET /pets` and `GET /pets/{petId}`: the operations the file stands for. */
  operations: string[];
  rel: string;
  items: unknown[];
}

export async function generatePopulation(doc: Record<string, unknown>, options: { seed?: number | string; count?: number } = {}): Promise<PopulationFile[]> {
  const faker = await loadFaker();
  const deref = createDeref(doc);
  const { collections } = inferRoles(readDocument(doc, deref).operations, deref);
  const state = createState({ faker, deref, seed: options.seed ?? DEFAULT_SEED, collections, count: (c) => c.count ?? options.count ?? DEFAULT_COUNT });
  const out: PopulationFile[] = [];
  for (const c of collections) {
    if (c.scopeParams.length > 0) continue;
    let rel: string;
    try {
      const safe = requestPathToVfs(c.key.split('/').map((s) => encodeURIComponent(s)).join('/'));
      if (safe.path === '') continue;
      rel = `${safe.path}.json`;
    } catch {
      continue;
    }
    out.push({ collection: c, operations: [`GET ${c.key}`, ...(c.idParam ? [`GET ${c.key}/{${c.idParam}}`] : [])], rel, items: state.scope(c, []).items.values() });
  }
  return out;
}
