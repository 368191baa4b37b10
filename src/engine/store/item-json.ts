/**
 * The JSON text of stored items, made once per version of an item: items are never mutated, a
 * write stores a new object, so an item's text can be kept with it (the collections layer's and
 * the OpenAPI backend's answers).
 */
const texts = new WeakMap<object, string>();

/** The JSON text of an item (or any value; objects memoised). */
export function jsonOf(item: unknown): string {
  if (item === null || typeof item !== 'object') return JSON.stringify(item);
  let text = texts.get(item);
  if (text === undefined) texts.set(item, (text = JSON.stringify(item)));
  return text;
}

/** The JSON text of an array of items: JSON.stringify's, from the items' memoised texts. */
export function arrayJson(items: readonly unknown[]): string {
  let out = '[';
  for (let i = 0; i < items.length; i++) out += (i === 0 ? '' : ',') + jsonOf(items[i]);
  return `${out}]`;
}
