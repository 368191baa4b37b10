/**
 * The answer to a filtered or paged GET of a cached JSON array (read.ts), memoised per cache
 * entry: the same query on the same file (a list UI polling its page, a test suite asking the
 * same page again, an app re-rendering) is answered from the serialised page, with no scan, no
 * JSON.stringify and no header object built. The memo lives and dies with the entry (any change
 * to the file builds a new entry; query.ts keeps its match memo the same way), holds at most
 * MAX_PAGES pages per file (oldest first out) and only pages up to MAX_PAGE_BYTES of text.
 */
import { JSON_CONTENT_TYPE } from '../../core/media-type.js';
import { textBody, type FastHeaders } from '../../core/fast-response.js';
import type { FileEntry } from '../file-cache/file-cache.js';
import type { Predicate } from '../file-cache/filters.js';
import type { Page } from '../file-cache/pagination.js';
import { runQuery } from '../file-cache/query.js';

export interface PageAnswer {
  /** The page as FastResponse keeps text (short: a string; long: its UTF-8 bytes). */
  readonly body: string | Uint8Array;
  /** Content-Type, Content-Length, X-Total-Count; frozen (shared by every answer of this page). */
  readonly headers: FastHeaders;
}

const MAX_PAGES = 32;
const MAX_PAGE_BYTES = 64 * 1024;
const memos = new WeakMap<FileEntry, Map<string, PageAnswer>>();

function keyOf(signature: string, page: Page | undefined): string {
  if (page === undefined) return signature;
  return `${signature}\n${page.skip}\n${page.limit ?? ''}\n${page.sort ? `${page.desc ? '-' : '+'}${page.sortKey}` : ''}`;
}

export function pageAnswer(entry: FileEntry, items: readonly unknown[], predicates: readonly Predicate[], page: Page | undefined, signature: string): PageAnswer {
  const key = keyOf(signature, page);
  let pages = memos.get(entry);
  const hit = pages?.get(key);
  if (hit !== undefined) return hit;
  const r = runQuery(entry, items, predicates, page, false, signature);
  const { body, length } = textBody(JSON.stringify(r.page));
  const answer: PageAnswer = {
    body,
    headers: Object.freeze({ 'Content-Type': JSON_CONTENT_TYPE, 'X-Total-Count': String(r.total), 'Content-Length': String(length) }),
  };
  if (length <= MAX_PAGE_BYTES) {
    if (pages === undefined) memos.set(entry, (pages = new Map()));
    if (pages.size >= MAX_PAGES) pages.delete(pages.keys().next().value!);
    pages.set(key, answer);
  }
  return answer;
}
