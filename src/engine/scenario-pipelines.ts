/**
 * The scenario set of one engine: each scenario a second pipeline from the same recipe
 * (buildLayers) over its own handlers and an overlay of its folder on the base mocks
 * (scenario-sources.ts); which pipeline a request walks (the scenario it asks for, selection/scenario.ts, else the
 * current one, else the base); observing all of them; closing what they opened.
 */
import { errorResponse, HttpError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import type { Vfs } from '../vfs/types.js';
import type { RequestContext } from './context.js';
import type { DefaultFsFactory } from '../vfs/default-fs.js';
import type { ResolvedMockApiOptions } from './options.js';
import type { Exchange } from '../core/exchange.js';
import { buildLayers, type BuiltLayers, type LayerSources } from './layers.js';
import { createPipeline, type Pipeline } from './pipeline/run.js';
import type { EngineServices } from './services.js';
import { requestedScenario } from './selection/scenario.js';
import { pageWriteOf } from './page-write.js';
import { scenarioSources } from './scenario-sources.js';
import type { RouteOverrides } from './route-overrides.js';
import type { OverrideSource } from './sessions/layer.js';

export interface ScenarioSet {
  /** The scenario names, in the order configured. */
  readonly names: readonly string[];
  /** The base pipeline and every scenario's. */
  readonly pipelines: readonly Pipeline[];
  /** The current scenario (null: the base). */
  readonly current: string | null;
  /** Throws HttpError 400 for an unknown scenario name (null: the base, always known). */
  check(name: string | null): void;
  /** Switches the current scenario; an unknown name throws HttpError 400. */
  use(name: string | null): void;
  /** The pipeline `ctx` walks; a Response = 400 (an unknown scenario asked for). */
  pipelineFor(ctx: RequestContext): Pipeline | Response;
  /** Observes every pipeline; `scenario` names the one that answered (null: the base). */
  observe(fn: (x: Exchange, scenario: string | null) => void): () => void;
  /** Closes every pipeline and the filesystems opened for scenario folders. */
  close(): Promise<void>;
  /**
   * What the pipeline of scenario `name` (null: the base) was built from, and its layers, for a
   * pipeline layered over it (a session's, src/engine/sessions/); undefined for an unknown name.
   */
  recipe(name: string | null): ScenarioRecipe | undefined;
  /** The 400 for an unknown scenario name. */
  unknown(name: string, ctx: RequestContext): Response;
}

/** The recipe of one pipeline of the set (see `ScenarioSet.recipe`). */
export interface ScenarioRecipe {
  readonly sources: Pick<LayerSources, 'options' | 'vfs' | 'fsDir' | 'filesName'>;
  /** Its built layers (undefined: the base of a disabled engine). */
  readonly built: BuiltLayers | undefined;
}

export interface ScenarioSetSources {
  base: Pipeline;
  /** The shared and saved route overrides (route-overrides.ts): saved scenarios walk the base pipeline. */
  routeOverrides: RouteOverrides;
  options: ResolvedMockApiOptions;
  services: EngineServices;
  logger: Logger;
  /** The base filesystem (null: no base file routing). */
  vfs: Vfs | null;
  /** The default filesystem factory, for scenario folders outside a given `fs`. */
  factory: DefaultFsFactory | undefined;
  /** The base pipeline's built layers. */
  baseBuilt?: BuiltLayers;
}

export function createScenarioSet({ base, routeOverrides, options, services, logger, vfs, factory, baseBuilt }: ScenarioSetSources): ScenarioSet {
  const saved = routeOverrides.saved;
  // Configured scenarios: the shared overrides apply to their requests too (no saved scenario's: one scenario at a time).
  const sharedOnly: OverrideSource = { idle: () => routeOverrides.shared.length === 0, lists: () => [routeOverrides.shared] };
  const pipes = new Map<string, Pipeline>();
  const recipes = new Map<string | null, ScenarioRecipe>([[null, { sources: { options, vfs, fsDir: options.fsDir }, built: baseBuilt }]]);
  const owned: Vfs[] = [];
  if (!options.disabled) {
    const forward = options.noHandledRestFsRequestsAction === 'forward';
    for (const scenario of options.scenarios) {
      const { sources, owned: opened } = scenarioSources(scenario, options, {
        vfs,
        fsDir: options.fsDir,
        insideFs: options.fs !== undefined,
        open: factory ? (dir) => factory(dir, options.root) : undefined,
      });
      owned.push(...opened);
      const built = buildLayers({ ...sources, services, overrides: sharedOnly });
      const layers = built.layers;
      recipes.set(scenario.name, { sources, built });
      pipes.set(scenario.name, createPipeline({ layers, delay: sources.options.delay, gatewayTimeout: options.gatewayTimeout, forward, sleep: services.sleep, logger }));
    }
  }
  const configured = [...pipes.keys()];
  const names = (): string[] => (saved.size === 0 ? configured : [...configured, ...saved.keys()]);
  const pipelines: Pipeline[] = [base, ...pipes.values()];
  let current: string | null = null;
  const unknown = (name: string) =>
    `Unknown scenario "${name.slice(0, 64)}"${names().length ? ` (known: ${names().join(', ')})` : ' (no scenarios are configured)'}`;
  const baseRecipe = recipes.get(null)!;
  const check = (name: string | null) => {
    if (name !== null && !pipes.has(name) && !saved.has(name)) throw new HttpError(400, unknown(String(name)));
  };

  return {
    get names() {
      return names();
    },
    pipelines,
    get current() {
      return current;
    },
    check,
    use(name) {
      check(name);
      current = name;
    },
    pipelineFor(ctx) {
      if (pipes.size === 0 && saved.size === 0) return base; // no scenarios: the header and parameter mean nothing
      // The devtools page's write (page-write.ts) works on the base's data, the state its shared scope reads.
      const name = requestedScenario(ctx) ?? (pageWriteOf(ctx.request) === undefined ? current : null);
      if (name === null || saved.has(name)) return base; // a saved scenario: the base pipeline with its overrides (route-overrides layer)
      return pipes.get(name) ?? errorResponse(400, unknown(name), ctx.pathname, { head: ctx.method === 'HEAD' });
    },
    recipe: (name) => recipes.get(name) ?? (name !== null && saved.has(name) ? baseRecipe : undefined),
    unknown: (name, ctx) => errorResponse(400, unknown(name), ctx.pathname, { head: ctx.method === 'HEAD' }),
    observe(fn) {
      const offs = [base.observe((x) => fn(x, null)), ...[...pipes].map(([name, p]) => p.observe((x) => fn(x, name)))];
      return () => offs.forEach((off) => off());
    },
    async close() {
      for (const p of pipelines) await p.close();
      await Promise.allSettled(owned.map((f) => f.close?.()));
    },
  };
}
