/**
 * GraphQL names from collection names, as json-graphql-server makes them: `posts` → type `Post`,
 * queries `Post`, `allPosts`, `_allPostsMeta`, mutations `createPost`…, relation fields `User`
 * (to one) and `Posts` (to many), subscriptions `postCreated`… Names GraphQL cannot hold are
 * cleaned (`blog-posts` → `BlogPost`); a collection whose name gives no valid type is left out.
 */
import { plural, singular } from '../store/plurals.js';

const VALID = /^[_A-Za-z][_0-9A-Za-z]*$/;

/** `blog_posts` → `BlogPosts`. */
export function camel(name: string): string {
  return name
    .split(/[^0-9A-Za-z]+/)
    .filter(Boolean)
    .map((p) => p[0]!.toUpperCase() + p.slice(1))
    .join('');
}

export interface TypeNames {
  /** `Post` */
  readonly type: string;
  /** `Posts` (in `allPosts`, `_allPostsMeta`, and the to-many relation field) */
  readonly plural: string;
  /** `post` (in `postCreated`) */
  readonly lower: string;
}

/** The GraphQL names of a collection, or undefined when it cannot have any. */
export function namesOf(collection: string): TypeNames | undefined {
  const last = collection.slice(collection.lastIndexOf('/') + 1);
  const one = singular(last);
  const type = camel(one);
  if (!VALID.test(type)) return undefined;
  const many = one !== last ? camel(last) : plural(type);
  if (!VALID.test(many)) return undefined;
  return { type, plural: many, lower: type[0]!.toLowerCase() + type.slice(1) };
}

/** The to-one relation field for a foreign key: `user_id`/`userId` → `User`, `author` → `Author`. */
export function toOneField(field: string): string {
  const stem = field.endsWith('_id') ? field.slice(0, -3) : field.endsWith('Id') ? field.slice(0, -2) : field;
  return camel(singular(stem));
}

export function isValidName(name: string): boolean {
  return VALID.test(name);
}
