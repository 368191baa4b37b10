/**
 * Which scenario a request asks for: the `X-Mockyard-Scenario` header, else the `__scenario`
 * query parameter (per request, so parallel tests do not disturb each other); undefined = none
 * asked (the engine's current scenario applies). An empty value counts as not asked.
 */
import type { RequestContext } from '../context.js';

export const SCENARIO_HEADER = 'x-mockyard-scenario';
export const SCENARIO_PARAM = '__scenario';

export function requestedScenario(ctx: RequestContext): string | undefined {
  const header = ctx.request.headers.get(SCENARIO_HEADER);
  if (header !== null && header.trim() !== '') return header.trim();
  if (ctx.search.includes(SCENARIO_PARAM)) {
    const q = ctx.searchParams.get(SCENARIO_PARAM);
    if (q !== null && q !== '') return q;
  }
  return undefined;
}
