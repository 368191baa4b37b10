/**
 * A request to a path that has recordings (a HAR's entries, `<name>@recorded.json`) but none for
 * this request (another query, method or body): it never gets another recording's answer. It goes
 * to the proxy when one is configured (`fallback`), else it is a 404 whose JSON error body names
 * what is recorded for the path (`recorded`), nearest first: the same method (HEAD: GET), then the
 * most query parameters (name and value) in common, then recorded order.
 */
import { errorResponse } from '../../core/errors.js';
import type { RequestContext } from '../context.js';
import { canonicalQuery } from '../file-cache/query-variant.js';
import type { Layer } from '../pipeline/layer.js';
import { entryLabel, type ReplayEntry } from '../recordings/entries.js';

const MAX_NAMED = 20;

export function noRecording(ctx: RequestContext, entries: readonly ReplayEntry[], layer: string, fallback: Layer | undefined): Promise<Response | undefined> | Response | undefined {
  if (fallback) return fallback.handle(ctx);
  const asked = new Set(ctx.search.length > 1 ? canonicalQuery(ctx.search).split('&') : []);
  const score = (e: ReplayEntry) => {
    const method = e.method === ctx.method || (ctx.method === 'HEAD' && e.method === 'GET') ? 1000 : 0;
    return method + (e.query ? e.query.split('&').filter((p) => asked.has(p)).length : 0);
  };
  const ranked = entries.map((e, i) => ({ e, i, s: score(e) })).sort((a, b) => b.s - a.s || a.i - b.i).map((x) => x.e);
  const labels = [...new Set(ranked.map((e) => entryLabel(ctx.pathname, e) + (e.body !== undefined ? ' (with a recorded body)' : '')))];
  const named = labels.slice(0, MAX_NAMED);
  ctx.answered(layer, 'no recording');
  const message = `No recorded answer for ${entryLabel(ctx.pathname, { method: ctx.method, query: ctx.search.length > 1 ? ctx.search.slice(1) : '' })}; recorded for this path: ${named.join(', ')}${labels.length > named.length ? `, … (${labels.length} in all)` : ''}`;
  return errorResponse(404, message, ctx.pathname, { head: ctx.method === 'HEAD', details: { recorded: named } });
}
