/**
 * English plurals as json-server and json-graphql-server meet them in collection names: the
 * store's relation naming (`postId` → posts, `category_id` → categories), the collections
 * layer's `_expand`, GraphQL's type names.
 */

/** `posts` → `post`, `categories` → `category`, `boxes` → `box`. */
export function singular(name: string): string {
  if (/ies$/i.test(name) && name.length > 3) return `${name.slice(0, -3)}y`;
  if (/(ss|x|z|ch|sh)es$/i.test(name)) return name.slice(0, -2);
  if (/s$/i.test(name) && !/ss$/i.test(name)) return name.slice(0, -1);
  return name;
}

/** Names a collection of `name`s may have, most likely first: post → posts, post; category → categories, …; box → boxes, …. */
export function pluralCandidates(name: string): string[] {
  const out = [`${name}s`, name];
  if (/[^aeiou]y$/i.test(name)) out.unshift(`${name.slice(0, -1)}ies`);
  if (/(s|x|z|ch|sh)$/i.test(name)) out.unshift(`${name}es`);
  return out;
}
