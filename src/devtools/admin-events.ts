/**
 * The admin API's events export (admin.ts hands `/events/export` here): the collector's events of
 * a time window as JSON Lines (one event a line, newest first, as the read API orders them),
 * read through the collector's own read API in pages (its auth: the request's `X-Tracker-Key`
 * is passed on), streamed as they come, so a large window is never held whole.
 *
 *   GET events/export?since=<ISO>&until=<ISO>   application/x-ndjson download
 *   DELETE events?from=<ISO>&to=<ISO>            deletes the events of [from, to) from the
 *                                                collector's store → { deleted } (the store's
 *                                                `deleteRange`; the request's `X-Tracker-Key` is
 *                                                checked as the read API checks it)
 */
import type { Engine } from '../core/engine.js';
import { HttpError } from '../core/errors.js';
import { isCollector } from '../tracker/is-collector.js';
import { parseDeleteRange } from '../tracker/read-query.js';
import { collectorBase } from './paths.js';

const PAGE = 10_000;

export async function exportEvents(tracker: Engine & { basePath?: string }, request: Request, params: URLSearchParams): Promise<Response> {
  const since = params.get('since');
  const until = params.get('until');
  if (!since || !until) throw new HttpError(400, 'since and until are required (ISO 8601 times, as the collector\u2019s read API takes them)');
  const base = `${new URL(request.url).origin}${collectorBase(tracker)}/`;
  const key = request.headers.get('x-tracker-key');
  const read = async (cursor: string | null): Promise<{ events: unknown[]; nextCursor?: string | null }> => {
    const q = new URLSearchParams({ since, until, limit: String(PAGE) });
    if (cursor) q.set('cursor', cursor);
    const res = await tracker.handle(new Request(`${base}?${q}`, { headers: { Accept: 'application/json', 'Accept-Encoding': 'identity', ...(key ? { 'X-Tracker-Key': key } : {}) } }));
    if (!res) throw new HttpError(404, 'The collector did not answer its read API');
    const text = await res.text();
    if (!res.ok) {
      let message = text;
      try {
        message = (JSON.parse(text) as { message?: string }).message ?? text;
      } catch {
        // not JSON: the text as it is
      }
      throw new HttpError(res.status, `The collector refused the read: ${message}`);
    }
    return JSON.parse(text) as { events: unknown[]; nextCursor?: string | null };
  };
  const first = await read(null); // errors (bad window, key) answered before the stream starts
  const encoder = new TextEncoder();
  let page: { events: unknown[]; nextCursor?: string | null } | null = first;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (page === null) return controller.close();
      const lines = page.events.map((e) => `${JSON.stringify(e)}\n`).join('');
      if (lines) controller.enqueue(encoder.encode(lines));
      const next = page.nextCursor;
      try {
        page = next ? await read(next) : null;
      } catch (err) {
        controller.error(err);
      }
    },
  });
  const name = `events-${since}-${until}`.replace(/[^A-Za-z0-9._-]+/g, '-');
  return new Response(body, { status: 200, headers: { 'Content-Type': 'application/x-ndjson; charset=utf-8', 'Content-Disposition': `attachment; filename="${name}.jsonl"`, 'Cache-Control': 'no-store' } });
}

export async function deleteEvents(tracker: Engine, request: Request, params: URLSearchParams): Promise<Response> {
  if (!isCollector(tracker)) throw new HttpError(404, 'No event collector is configured on this host');
  const { from, to } = parseDeleteRange((name) => params.get(name));
  const deleted = await tracker.deleteRange(from, to, request.headers.get('x-tracker-key'));
  return new Response(JSON.stringify({ deleted, from: new Date(from).toISOString(), to: new Date(to).toISOString() }), { status: 200, headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' } });
}
