/**
 * The read response as JSON text, built from the stored JSON lines as they are (no
 * re-serialisation): identity reads, WebSocket `events:response` answers, and the text the gzip
 * encoder (read-encoder.ts) deflates.
 */
import type { Entry } from './time-index.js';
import type { Selection } from './read-query.js';

export function trailerOf(sel: Selection): string {
  const cursor = sel.nextCursor === undefined ? '' : `,"nextCursor":${JSON.stringify(sel.nextCursor)}`;
  return `],"total":${sel.total},"page":${sel.page === null ? 'null' : sel.page},"limit":${sel.limit}${cursor}}`;
}

/** `e1,e2,…` for entries[from-1] down to entries[to] (newest first). */
export function joinLines(entries: Entry[], from: number, to: number): string {
  const parts: string[] = new Array(Math.max(0, from - to));
  for (let i = from - 1, k = 0; i >= to; i--, k++) parts[k] = entries[i]!.line;
  return parts.join(',');
}

/** The read response as JSON text (identity responses and WebSocket answers). */
export function selectionJson(sel: Selection): string {
  return `{"events":[${joinLines(sel.entries, sel.start, sel.end)}${trailerOf(sel)}`;
}
