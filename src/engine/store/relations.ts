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
 */
import { pluralCandidates } from '../collections/relations.js';

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
