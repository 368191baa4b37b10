/**
 * THE singular/plural rule of collection names, one for every surface: the store's relation
 * naming (`postId` → posts, `category_id` → categories, `personId` → people), the collections
 * layer's `_expand`/`_embed`, GraphQL's type and field names (graphql/names.ts, contract
 * type names), the OpenAPI backend's id parameters and generated relations, the schema faker's
 * array items. It answers as the peers do on the names they share (measured: json-server
 * 0.17.4's `pluralize` for `_expand`/`_embed`, json-graphql-server 3.3.2's `inflection`; the
 * fixtures test/fixtures/json-server/plurals-0.17.4.json and
 * test/fixtures/json-graphql-server/plurals-3.3.2.json): `boxes` ⇄ `box`, `categories` ⇄
 * `category`, `people` ⇄ `person`, `news` ⇄ `news`.
 */

/** Irregular plurals (lower case), singular → plural. */
const IRREGULAR: Record<string, string> = { person: 'people', child: 'children', man: 'men', woman: 'women', mouse: 'mice', goose: 'geese', foot: 'feet', tooth: 'teeth' };
const IRREGULAR_SINGULAR: Record<string, string> = Object.fromEntries(Object.entries(IRREGULAR).map(([s, p]) => [p, s]));
/** Words that are their own plural. */
const UNCOUNTABLE = new Set(['news', 'data', 'series', 'species', 'sheep', 'fish', 'deer', 'information', 'equipment', 'feedback', 'metadata', 'media']);

/** The ending of `word` (a lower-case table word) in `word`'s case: `People` → `Person`. */
function cased(word: string, replacement: string): string {
  if (word === word.toUpperCase() && word !== word.toLowerCase()) return replacement.toUpperCase();
  return word[0] === word[0]!.toUpperCase() ? replacement[0]!.toUpperCase() + replacement.slice(1) : replacement;
}

/** The last word of a name (`blog_posts` → `posts`, `BlogPosts` → `Posts`) and what comes before it. */
function lastWord(name: string): [string, string] {
  const m = /^(.*?)([A-Z]?[a-z0-9]*|[A-Z0-9]+)$/.exec(name)!;
  return m[2] === '' ? [name, ''] : [m[1]!, m[2]!];
}

/** `posts` → `post`, `categories` → `category`, `boxes` → `box`, `people` → `person`, `news` → `news`. */
export function singular(name: string): string {
  const [head, word] = lastWord(name);
  const lower = word.toLowerCase();
  if (UNCOUNTABLE.has(lower)) return name;
  const irregular = IRREGULAR_SINGULAR[lower];
  if (irregular !== undefined) return head + cased(word, irregular);
  if (/ies$/i.test(name) && name.length > 3) return `${name.slice(0, -3)}${cased(name.slice(-3), 'y')}`;
  if (/(ss|x|z|ch|sh|[^aou]us)es$/i.test(name)) return name.slice(0, -2); // statuses, not houses
  if (/(ss|us)$/i.test(name)) return name;
  if (/s$/i.test(name)) return name.slice(0, -1);
  return name;
}

/** `post` → `posts`, `category` → `categories`, `box` → `boxes`, `person` → `people`, `news` → `news`. */
export function plural(word: string): string {
  const [head, last] = lastWord(word);
  const lower = last.toLowerCase();
  if (UNCOUNTABLE.has(lower)) return word;
  const irregular = IRREGULAR[lower];
  if (irregular !== undefined) return head + cased(last, irregular);
  if (/[^aeiou]y$/i.test(word)) return `${word.slice(0, -1)}ies`;
  if (/(s|x|z|ch|sh)$/i.test(word)) return `${word}es`;
  return `${word}s`;
}

/** Names a collection of `name`s may have, most likely first: post → posts, post; box → boxes, boxs, box; person → people, …. */
export function pluralCandidates(name: string): string[] {
  const out = [`${name}s`, name];
  const p = plural(name);
  if (!out.includes(p)) out.unshift(p);
  return out;
}
