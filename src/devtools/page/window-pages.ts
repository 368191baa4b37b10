/**
 * Reading the Events tab's window so that the first render does not depend on its size: the
 * newest FIRST_PAGE events first (`limit`, with the exact `total` of the window), then the rest
 * in PAGE-sized reads that continue with the collector's `nextCursor` (src/tracker/read-query.ts),
 * each handed over as it arrives. A cursor names the last event a read returned, so events stored
 * meanwhile shift nothing: no page repeats or skips one (new events come by push instead).
 * Each read is sent before the page it follows is merged, and the page gets a frame to paint
 * between them. A reply without `nextCursor` (a backend that does not page) is the whole window.
 */
import type { TrackerEvent } from '../../tracker/types.js';
import type { Transport } from './api.js';
import type { TimeWindow } from './events-model.js';

export const FIRST_PAGE = 500;
export const PAGE = 50_000;

export interface WindowPage {
  events: TrackerEvent[];
  /** The count of the whole window when the first read answered. */
  total: number;
  /** The count of events handed over so far, this page included. */
  loaded: number;
  /** True for the first page. */
  first: boolean;
  /** True when no more pages follow. */
  last: boolean;
}

interface ReadBody {
  events: TrackerEvent[];
  total: number;
  nextCursor?: string | null;
}

/** One frame to paint (or 50 ms when frames do not come: a background tab; none outside a page). */
const nextPaint = () =>
  new Promise<void>((resolve) => {
    if (typeof requestAnimationFrame !== 'function') return resolve();
    const t = setTimeout(resolve, 50);
    requestAnimationFrame(() => setTimeout(() => (clearTimeout(t), resolve()), 0));
  });

export async function readWindowInPages(transport: Transport, basePath: string, w: TimeWindow, key: string, signal: AbortSignal, onPage: (page: WindowPage) => void): Promise<void> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (key) headers['X-Tracker-Key'] = key;
  const window = `since=${encodeURIComponent(new Date(w.since).toISOString())}&until=${encodeURIComponent(new Date(w.until).toISOString())}`;
  const read = async (params: string): Promise<ReadBody> => {
    const res = await transport(`${basePath}?${window}${params}`, { headers, signal });
    if (!res.ok) throw new Error(`${res.status}: ${res.status === 401 ? 'the collector needs its API key' : res.statusText}`);
    const body = (await res.json()) as ReadBody;
    if (!Array.isArray(body?.events)) throw new Error('the collector answered without events');
    return body;
  };
  performance.mark('mockyard:events:requested');
  let body = await read(`&limit=${FIRST_PAGE}`);
  performance.mark('mockyard:events:parsed');
  const total = typeof body.total === 'number' ? body.total : body.events.length;
  let loaded = 0;
  for (let first = true; ; first = false) {
    if (signal.aborted) return;
    loaded += body.events.length;
    const cursor = typeof body.nextCursor === 'string' ? body.nextCursor : null;
    // The next read is under way (server, network) while this page is merged and painted.
    const next = cursor === null ? null : read(`&limit=${PAGE}&cursor=${encodeURIComponent(cursor)}`);
    next?.catch(() => {}); // awaited below; an abort meanwhile must not surface as unhandled
    onPage({ events: body.events, total, loaded, first, last: cursor === null });
    if (next === null) return;
    await nextPaint();
    if (signal.aborted) return;
    body = await next;
  }
}
