/**
 * THE way route overrides (overrides.ts: delay, status, fault, off, a body, a Prefer) reach a
 * running pipeline, for a session's, the shared ones and a saved scenario's alike: the
 * `route-overrides` layer (layers.ts, right after `api.use`'s `overrides`, before the configured
 * faults) asks its source which lists apply to the request — the first list's overrides win —
 * and applies them: a matching fault rule (delay, an error status, a connection fault), then a
 * matching `prefer` (ctx.prefer, read by the OpenAPI backend's Prefer rule), then an answering
 * override (a handler). Nothing is rebuilt when an override is added or undone: the lists are
 * immutable arrays replaced whole, compiled once per combination (kept while the lists live).
 * A request sees the lists of the moment it reaches the layer.
 * Order: after api.use's overrides, before the configured faults and every answering layer: an
 *   override set at run time wins over the configuration, code (`api.use`) over it.
 */
import type { RequestContext } from '../context.js';
import { createFaultLayer } from '../faults/layer.js';
import type { FaultRule } from '../faults/options.js';
import { configId } from '../file-cache/filters.js';
import { compilePattern, ruleTakes, type CompiledPattern } from '../handler-api/pattern.js';
import { createHandlerLayer, type FsServer, type HandlerLayerOptions } from '../handlers/layer.js';
import { PASS, type Layer } from '../pipeline/layer.js';
import type { EngineServices } from '../services.js';
import type { RestHandler } from '../types.js';
import { compileOverride, type SessionOverride } from './overrides.js';

export const ROUTE_OVERRIDES_LAYER = 'route-overrides';

/** Which override lists apply to a request, the first winning (empty lists may be left in). */
export interface OverrideSource {
  /** Cheap: true when no list can apply to any request (the layer then passes at once). */
  idle(): boolean;
  lists(ctx: RequestContext): ReadonlyArray<readonly SessionOverride[]>;
}

interface Compiled {
  faults: Layer | undefined;
  prefer: Array<{ method: string; pattern: CompiledPattern; prefer: string }>;
  answers: Layer | undefined;
}

export function createRouteOverridesLayer(source: OverrideSource, options: HandlerLayerOptions, services: EngineServices, files: FsServer, fsDir: string | null): Layer {
  const cache = new Map<string, Compiled>();

  function compile(lists: ReadonlyArray<readonly SessionOverride[]>): Compiled | undefined {
    const used = lists.filter((l) => l.length > 0);
    if (used.length === 0) return undefined;
    const key = used.map(configId).join(','); // the lists (replaced, never changed) by identity
    let c = cache.get(key);
    if (c !== undefined) return c;
    const rules: FaultRule[] = [];
    const handlers: RestHandler[] = [];
    const prefer: Compiled['prefer'] = [];
    for (const o of used.flat()) {
      const part = compileOverride(o, fsDir);
      if (part.rule) rules.push(part.rule);
      if (part.handler) handlers.push(part.handler);
      if (part.prefer) prefer.push({ method: part.prefer.method.toUpperCase(), pattern: compilePattern(part.prefer.path), prefer: part.prefer.prefer });
    }
    c = {
      faults: rules.length > 0 ? createFaultLayer(rules, services) : undefined,
      prefer,
      answers: handlers.length > 0 ? createHandlerLayer({ ...options, handlers }, services, files, ROUTE_OVERRIDES_LAYER) : undefined,
    };
    if (cache.size >= 32) {
      for (const old of cache.values()) void old.answers?.close?.();
      cache.clear(); // lists replaced many times: start again (compiling is cheap)
    }
    cache.set(key, c);
    return c;
  }

  const current = (ctx: RequestContext): Compiled | undefined => (source.idle() ? undefined : compile(source.lists(ctx)));

  return {
    name: ROUTE_OVERRIDES_LAYER,
    ownDelay: true, // an answering override's delay is its own (as a handler's)
    peek(ctx) {
      const c = current(ctx);
      if (c === undefined) return PASS;
      if (c.prefer.length > 0 || (c.faults !== undefined && c.faults.peek?.(ctx) !== PASS)) return undefined;
      return c.answers ? c.answers.peek!(ctx) : PASS;
    },
    async handle(ctx) {
      const c = current(ctx);
      if (c === undefined) return undefined;
      if (c.faults) {
        const failed = await c.faults.handle(ctx);
        if (failed !== undefined) return failed;
      }
      const method = ctx.method;
      for (const p of c.prefer) {
        if (ruleTakes(p.method, p.pattern, method, ctx.subPath)) {
          ctx.prefer = p.prefer;
          break;
        }
      }
      return c.answers ? c.answers.handle(ctx) : undefined;
    },
    close() {
      for (const c of cache.values()) void c.answers?.close?.();
      cache.clear();
    },
  };
}
