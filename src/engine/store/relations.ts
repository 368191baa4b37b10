/**
 * Relation naming: which field of an item points to an item of which other collection.
 *
 *   'json-server'          `postId`  → posts    (json-server's `_embed`/`_expand` convention)
 *   'json-graphql-server'  `post_id` → posts    (json-graphql-server's convention)
 *   'both' (default)       either
 *   { comments: { postId: 'posts', author: 'users' } }   declared per collection (plus the
 *                          conventions above for the fields not declared, unless `only: true`)
 *
 * A convention field links only when the collection it names exists (`userId` with no `users`
 * is a plain field). Plurals are guessed the way json-server and json-graphql-server meet them
 * (`category_id` → categories, `box_id` → boxes, `person_id` → people or persons).
 *
 * REST routes need ONE field per pair of collections (`_embed`, `_expand`, nested routes, the
 * delete cascade): `relationField` / `expandField` give it — a declared field first, else the
 * convention's (`<singular>Id`, also under 'both'; `<singular>_id` under 'json-graphql-server').
 */
import { pluralCandidates, singular } from './plurals.js';

export type RelationConvention = 'json-server' | 'json-graphql-server' | 'both';

export interface DeclaredRelations {
  /** Per child collection: field → parent collection. */
  readonly [collection: string]: { readonly [field: string]: string };
}

export interface RelationNaming {
  readonly convention: RelationConvention | 'none';
  readonly declared: DeclaredRelations;
}

export interface Relation {
  /** The child collection holding the foreign key (`comments`). */
  readonly child: string;
  /** The field holding the parent's id (`postId`, `post_id`). */
  readonly field: string;
  /** The parent collection (`posts`). */
  readonly parent: string;
}

const IRREGULAR: Record<string, string> = { person: 'people', child: 'children', man: 'men', woman: 'women' };

/** The stem a foreign-key field names under a convention (`postId` → post), or undefined. */
function stemOf(field: string, convention: RelationNaming['convention']): string | undefined {
  if ((convention === 'json-graphql-server' || convention === 'both') && field.length > 3 && field.endsWith('_id')) return field.slice(0, -3);
  if ((convention === 'json-server' || convention === 'both') && field.length > 2 && field.endsWith('Id') && field !== 'Id') return field.slice(0, -2);
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
      const stem = stemOf(field, naming.convention);
      if (stem === undefined) continue;
      const candidates = IRREGULAR[stem] ? [IRREGULAR[stem]!, ...pluralCandidates(stem)] : pluralCandidates(stem);
      const parent = candidates.find((c) => collections.has(c));
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

function conventionField(naming: RelationNaming, stem: string): string | undefined {
  if (naming.convention === 'none') return undefined;
  return naming.convention === 'json-graphql-server' ? `${stem}_id` : `${stem}Id`;
}

/**
 * The field of `child`'s items that holds the id of a `parent` item (`comments`, `posts` →
 * `postId`), or undefined when none is named (convention 'none', nothing declared).
 */
export function relationField(naming: RelationNaming, child: string, parent: string): string | undefined {
  const declared = declaredOf(naming, child);
  for (const field of Object.keys(declared)) {
    const p = declared[field]!;
    if (p === parent || p === baseName(parent)) return field;
  }
  return conventionField(naming, singular(baseName(parent)));
}

/**
 * What `_expand=<name>` on `child` follows: the field holding the parent's id and the names the
 * parent collection may have, most likely first (`post` → `postId` in posts, post, …; a declared
 * field named `<name>`, or pointing to `<name>`'s collection, first).
 */
export function expandField(naming: RelationNaming, child: string, name: string): { field: string; parents: string[] } | undefined {
  const declared = declaredOf(naming, child);
  for (const field of Object.keys(declared)) {
    const p = declared[field]!;
    if (field === name || p === name || singular(baseName(p)) === name) return { field, parents: [p] };
  }
  const field = conventionField(naming, name);
  return field === undefined ? undefined : { field, parents: pluralCandidates(name) };
}
