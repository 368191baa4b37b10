/**
 * json-server's surface (options.ts: `routes`, `middlewares`): two layers, this rewrite layer and
 * the middleware layer (middleware-layer.ts).
 *
 * The rewrite layer (`routes`, and the json-server preset's trailing slash): changes the path and
 * query the later layers see, before handlers, collections and files, so a rewritten request
 * reaches items, filters, POST appends and queries as if it had been sent so (a WebSocket upgrade
 * too: GraphQL subscriptions and the WebSocket handlers see the rewritten path). Never answers,
 * except `GET /__rules` (the rules, as json-server's rewriter answers it).
 *
 * Under the preset a trailing slash is dropped (`/posts/1/` is `/posts/1`), as both json-servers
 * (Express's non-strict routing) do, and `?callback=fn` on a GET answers JSONP as json-server 0.17
 * does: a JSON answer becomes the JavaScript call `fn(…)` (Express's `res.jsonp` form), text/javascript;
 * `?_delay=MS` waits before answering, on any method, as 0.17's router does.
 * Order: after openapi, before the middlewares and handlers: every later layer sees the rewritten
 *   path, as json-server's rewriter runs before its router.
 */
import { FastResponse, fastState } from '../../core/fast-response.js';
import type { RequestContext } from '../context.js';
import { PASS, type Layer } from '../pipeline/layer.js';
import type { LiveJsonServerRules } from './live-rules.js';
import { applyRoutes } from './routes.js';

/** Express's `res.jsonp`: any callback name, with the characters outside `[]\w$.` removed (`?callback=1` → `1`). */
const UNSAFE_CALLBACK = /[^[\]\w$.]/g;

/** A JSON answer as JSONP (Express's `res.jsonp` form); other answers as they are. */
function jsonp(name: string, response: Response): Response {
  const state = fastState(response);
  if (!state || state.body === null || !/json/i.test(response.headers.get('content-type') ?? '')) return response;
  const json = typeof state.body === 'string' ? state.body : new TextDecoder().decode(state.body);
  const body = `/**/ typeof ${name} === 'function' && ${name}(${json.replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029')});`;
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(state.headers)) if (!/^content-(type|length)$/i.test(k)) headers[k] = v;
  return FastResponse.bytes(new TextEncoder().encode(body), state.status, { ...headers, 'Content-Type': 'text/javascript; charset=utf-8', 'X-Content-Type-Options': 'nosniff' });
}

/** json-server 0.17's `?_delay=MS` on any method (`parseFloat`; not a number: none). */
function requestedDelay(ctx: RequestContext): number {
  if (!ctx.search.includes('_delay=')) return 0;
  const ms = Number.parseFloat(ctx.searchParams.get('_delay') ?? '');
  return Number.isFinite(ms) && ms > 0 ? Math.min(ms, 2_147_483_647) : 0;
}

/** `live`: the rules of the moment (live-rules.ts), read once per request (a reload never changes a request's rules midway). */
export function createRewriteLayer(live: LiveJsonServerRules, jsonServer: boolean, sleep: (ms: number) => Promise<void>): Layer {
  const trailingSlash = jsonServer;
  function rewrite(ctx: RequestContext): Response | undefined {
    const { routes: rules, routesSource: routes } = live.current;
    if (rules.length > 0 && ctx.subPath === '/__rules' && (ctx.method === 'GET' || ctx.method === 'HEAD')) {
      ctx.answered('rewrite', '__rules');
      return FastResponse.json(JSON.stringify(routes), 200, undefined, ctx.method === 'HEAD');
    }
    rewritePath(ctx);
    if (jsonServer && ctx.method === 'GET' && ctx.search.includes('callback=')) {
      const raw = ctx.searchParams.get('callback');
      if (raw !== null && raw !== '') {
        const name = raw.replace(UNSAFE_CALLBACK, '');
        ctx.onAnswer((r) => jsonp(name, r));
      }
    }
    return undefined;
  }
  /** The rules (and the preset's trailing slash) applied to the path and query the later layers see. */
  function rewritePath(ctx: RequestContext): void {
    const { routes: rules } = live.current;
    let sub = ctx.subPath;
    let search = ctx.search;
    const to = rules.length > 0 ? applyRoutes(rules, `${sub || '/'}${search}`) : undefined;
    if (to !== undefined) {
      const q = to.indexOf('?');
      sub = q === -1 ? to : to.slice(0, q);
      search = q === -1 ? '' : to.slice(q);
      if (search === '?') search = '';
    }
    if (trailingSlash && sub.length > 1 && sub.endsWith('/')) sub = sub.replace(/\/+$/, '') || '/';
    if (sub !== ctx.subPath || search !== ctx.search) ctx.rewrite(sub, search);
  }
  return {
    name: 'rewrite',
    handle(ctx) {
      const answer = rewrite(ctx);
      if (answer !== undefined || !jsonServer) return answer;
      const ms = requestedDelay(ctx);
      return ms > 0 ? sleep(ms).then(() => undefined) : undefined;
    },
    peek(ctx) {
      if (jsonServer && requestedDelay(ctx) > 0) return undefined; // handle rewrites, then waits
      return rewrite(ctx) ?? PASS;
    },
    // A WebSocket upgrade is rewritten as a request is (`/api/*` → `/$1` reaches `/graphql`'s
    // subscriptions and the WebSocket handlers, as it reaches its queries); the layer never takes the socket.
    upgrade(ctx) {
      rewritePath(ctx);
      return undefined;
    },
  };
}
