/**
 * A request to a path that has recordings (a HAR's entries, `<name>@recorded.json`) but none for
 * this request (another query, method or body): it never gets another recording's answer. It goes
 * to the proxy when one is configured (`fallback`), else it is a 404 whose JSON error body names
 * what is recorded for the path (`recorded`: the same method first).
 */
import { errorResponse } from '../../core/errors.js';
import type { RequestContext } from '../context.js';
import type { Layer } from '../pipeline/layer.js';
import { entryLabel, type ReplayEntry } from './entries.js';

const MAX_NAMED = 20;

export function noRecording(ctx: RequestContext, entries: readonly ReplayEntry[], layer: string, fallback: Layer | undefined): Promise<Response | undefined> | Response | undefined {
  if (fallback) return fallback.handle(ctx);
  const same = entries.filter((e) => e.method === ctx.method || (ctx.method === 'HEAD' && e.method === 'GET'));
  const others = entries.filter((e) => !same.includes(e));
  const labels = [...new Set([...same, ...others].map((e) => entryLabel(ctx.pathname, e) + (e.body !== undefined ? ' (with a recorded body)' : '')))];
  const named = labels.slice(0, MAX_NAMED);
  ctx.answered(layer, 'no recording');
  const message = `No recorded answer for ${entryLabel(ctx.pathname, { method: ctx.method, query: ctx.search.length > 1 ? ctx.search.slice(1) : '' })}; recorded for this path: ${named.join(', ')}${labels.length > named.length ? `, … (${labels.length} in all)` : ''}`;
  return errorResponse(404, message, ctx.pathname, { head: ctx.method === 'HEAD', details: { recorded: named } });
}
