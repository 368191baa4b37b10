/**
 * THE relation rule: which field of an item points to an item of which other collection. Every
 * surface asks it — REST's `_embed`/`_expand`, nested routes and delete cascade (the collections
 * layer), GraphQL's relation fields (graphql/schema.ts) and the OpenAPI backend's generated
 * foreign keys (openapi-backend/state.ts) — so one naming answers them all.
 *
 *   'json-server'          `postId`  → posts    (json-server's `_embed`/`_expand` convention)
 *   'json-graphql-server'  `post_id` → posts    (json-graphql-server's convention)
 *   'both' (default)       either (and `postID`)
 *   foreignKeySuffix       `<name><suffix>` only (json-server 0.17's `--fks _id`)
 *   { comments: { postId: 'posts', author: 'users' } }   declared per collection (plus the
 *                          convention above for the fields not declared)
 *
 * A convention field links only when the collection it names exists (`userId` with no `users`
 * is a plain field). Plurals are guessed the way json-server and json-graphql-server meet them
 * (`category_id` → categories, `box_id` → boxes, `person_id` → people or persons).
 *
 * REST routes need ONE field per pair of collections (`_embed`, `_expand`, nested routes, the
 * delete cascade): `relationField` / `expandField` give it — a declared field first, else the
 * convention field the child's items hold (`postId` or `post_id` under 'both': json-graphql-server's
 * sample data works in REST as it does in GraphQL), else the convention's first spelling.
 */
import type { RelationNaming } from '../store-contract/contract.js';
import { pluralCandidates, singular } from './plurals.js';

/** The default naming: both conventions, nothing declared. */
export const DEFAULT_NAMING: RelationNaming = { convention: 'both', declared: {} };

/** Whether the child collection's items hold a field (REST picks the spelling the data uses). */
export type HasField = (field: string) => boolean;

export interface Relation {
  /** The child collection holding the foreign key (`comments`). */
  readonly child: string;
  /** The field holding the parent's id (`postId`, `post_id`). */
  readonly field: string;
  /** The parent collection (`posts`). */
  readonly parent: string;
}

/** The foreign-key suffixes of a naming, most likely first. */
function suffixesOf(naming: RelationNaming): readonly string[] {
  if (naming.suffix !== undefined) return [naming.suffix];
  switch (naming.convention) {
    case 'json-server': return ['Id'];
    case 'json-graphql-server': return ['_id'];
    case 'both': return ['Id', '_id', 'ID'];
    default: return [];
  }
}

/** The stem a foreign-key field names under a naming (`postId` → post), or undefined. */
export function relationStem(naming: RelationNaming, field: string): string | undefined {
  for (const suffix of suffixesOf(naming)) if (field.length > suffix.length && field.endsWith(suffix)) return field.slice(0, -suffix.length);
  return undefined;
}

/** The relations among `collections`, given each collection's field names. */
export function findRelations(naming: RelationNaming, collections: ReadonlyMap<string, readonly string[]>): Relation[] {
  const out: Relation[] = [];
  for (const [child, fields] of collections) {
    const declared = naming.declared[child] ?? {};
    for (const [field, parent] of Object.entries(declared)) if (collections.has(parent)) out.push({ child, field, parent });
    for (const field of fields) {
      if (field in declared) continue;
      const stem = relationStem(naming, field);
      if (stem === undefined) continue;
      const parent = pluralCandidates(stem).find((c) => collections.has(c));
      if (parent !== undefined) out.push({ child, field, parent });
    }
  }
  return out;
}

/** The last segment of a collection name (`v1/posts` → `posts`): conventions name it alone. */
function baseName(collection: string): string {
  return collection.slice(collection.lastIndexOf('/') + 1);
}

/** The declared fields of `child` (by its full name, else its last segment). */
function declaredOf(naming: RelationNaming, child: string): { readonly [field: string]: string } {
  return naming.declared[child] ?? naming.declared[baseName(child)] ?? {};
}

/** The convention's field for `stem`: the spelling the items hold, else the first one. */
function conventionField(naming: RelationNaming, stem: string, has?: HasField): string | undefined {
  const fields = suffixesOf(naming).map((suffix) => `${stem}${suffix}`);
  return (has && fields.find(has)) ?? fields[0];
}

/**
 * The field of `child`'s items that holds the id of a `parent` item (`comments`, `posts` →
 * `postId`), or undefined when none is named (convention 'none', nothing declared).
 */
export function relationField(naming: RelationNaming, child: string, parent: string, has?: HasField): string | undefined {
  const declared = declaredOf(naming, child);
  for (const field of Object.keys(declared)) {
    const p = declared[field]!;
    if (p === parent || p === baseName(parent)) return field;
  }
  return conventionField(naming, singular(baseName(parent)), has);
}

/**
 * What `_expand=<name>` on `child` follows: the field holding the parent's id and the names the
 * parent collection may have, most likely first (`post` → `postId` in posts, post, …; a declared
 * field named `<name>`, or pointing to `<name>`'s collection, first).
 */
export function expandField(naming: RelationNaming, child: string, name: string, has?: HasField): { field: string; parents: string[] } | undefined {
  const declared = declaredOf(naming, child);
  for (const field of Object.keys(declared)) {
    const p = declared[field]!;
    if (field === name || p === name || singular(baseName(p)) === name) return { field, parents: [p] };
  }
  const field = conventionField(naming, name, has);
  return field === undefined ? undefined : { field, parents: pluralCandidates(name) };
}

/**
 * What is known of a stored array's fields: field → whether an item holds it, and the length the
 * answer was taken at. Stored arrays are the store's snapshots (a write publishes a new array), so
 * an answer stays true for its array; the length guards an array grown by appends, whose new tail
 * is looked at alone.
 */
const heldFields = new WeakMap<readonly unknown[], Map<string, { readonly held: boolean; readonly length: number }>>();

function holds(items: readonly unknown[], field: string, from: number): boolean {
  for (let i = from; i < items.length; i++) {
    const item = items[i];
    if (item !== null && typeof item === 'object' && Object.prototype.hasOwnProperty.call(item, field)) return true;
  }
  return false;
}

/**
 * Whether any of `items` holds `field` (the `has` of relationField/expandField for a stored array).
 * Remembered per array and field: a cascade DELETE asks it of every other collection on every
 * write, and a field no item holds would otherwise cost a walk over the whole collection each time.
 */
export function holdsField(items: readonly unknown[]): HasField {
  return (field) => {
    let known = heldFields.get(items);
    const seen = known?.get(field);
    if (seen !== undefined && (seen.held || seen.length === items.length)) return seen.held;
    const held = seen !== undefined && seen.length < items.length ? holds(items, field, seen.length) : holds(items, field, 0);
    if (known === undefined) heldFields.set(items, (known = new Map()));
    known.set(field, { held, length: items.length });
    return held;
  };
}
