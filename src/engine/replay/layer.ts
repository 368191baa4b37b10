/**
 * `mock.har`: serves a HAR log (`mockyard --har traffic.har`), as Playwright's `routeFromHAR`
 * replays one in a browser, in every host (the CLI, `serve`, middleware, the worker,
 * `interceptFetch`, `handlersFor`). The option is the HAR object, or (on Node) the path of a
 * `.har` file (read at start-up through the runtime's `readHar`). A malformed log is an
 * OptionsError at start-up (har-entries.ts).
 *
 * A request whose path has entries is answered by the matching entry (recordings/entries.ts: method, query
 * in any parameter order, body for writes); another query, method or body goes to the proxy when
 * one is configured, else the 404 naming what the HAR holds for the path (miss.ts). A path with
 * no entry is not this layer's: handlers, files and the proxy answer it as without a HAR.
 * Order: after handlers, before recorded, streams and files: a HAR log answers the paths it holds
 *   before the mocks folder does (handlers still win).
 */
import type { BoundedSyncInflate } from '../../core/inflate-bounded.js';
import { describe, OptionsError } from '../../core/options.js';
import type { HarOption } from './options.js';
import type { HarReader } from '../runtime.js';
import type { Logger } from '../../core/logger.js';
import type { RequestContext } from '../context.js';
import { canonicalQuery } from '../file-cache/query-variant.js';
import { PASS, type Layer } from '../pipeline/layer.js';
import { entryFor, pickEntry, type ReplayEntry } from '../recordings/entries.js';
import { harIndex, type HarIndex } from './har-entries.js';
import { noRecording } from './miss.js';
import { replayFor } from './origin-rewrite.js';

/** The entry's answer, naming the mock where it named the recorded origin. */
function replayed(ctx: RequestContext, e: ReplayEntry): Response {
  return replayFor(e, e.answer as Uint8Array, ctx.request, ctx.method === 'HEAD');
}

export const HAR_LAYER = 'har';

export interface HarLayerOptions {
  har: HarOption;
  prefixes: readonly string[];
  root?: string;
  readHar?: HarReader;
  /** Where a request the HAR has no entry for goes (the proxy layer), else the 404 naming the entries. */
  fallback: Layer | undefined;
  logger: Logger;
  bodyLimit: number;
  /** The runtime's native inflate for recorded compressed answers (runtime.ts). */
  inflate?: BoundedSyncInflate;
}

export function createHarLayer(options: HarLayerOptions): Layer {
  const option = 'mock.har';
  let log: unknown = options.har;
  if (typeof log === 'string') {
    if (!options.readHar) throw new OptionsError(option, `is a file path (${describe(log)}), which this runtime cannot read: give the HAR object`);
    try {
      log = options.readHar(log, options.root);
    } catch (err) {
      throw new OptionsError(option, (err as Error)?.message ?? String(err));
    }
  }
  const index: HarIndex = harIndex(log, options.prefixes, option, options.bodyLimit, options.inflate);
  options.logger.debug(`har: ${index.count} entries served${index.ignored ? `, ${index.ignored} left out (outside the prefix or without an answer)` : ''}`);
  if (index.outside > 0) {
    // Said at start-up: a browser's HAR of a whole site under an /api prefix would serve nothing, silently.
    options.logger.warn(`har: ${index.outside} of ${index.outside + index.count + (index.ignored - index.outside)} entries are outside the prefix ${options.prefixes.join(', ')} and are not served (serve them at their recorded paths with the prefix /: --prefix /)`);
  }
  let ready = false;
  const started = index.ready.then(() => {
    ready = true;
  });
  const queryOf = (ctx: RequestContext) => (ctx.search.length > 1 ? canonicalQuery(ctx.search) : '');
  return {
    name: HAR_LAYER,
    ready: started,
    peek(ctx) {
      const entries = index.byPath.get(ctx.pathname);
      if (entries === undefined) return PASS;
      if (!ready || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return undefined;
      const e = pickEntry(entries, ctx.method, queryOf(ctx), undefined, ctx.request);
      if (e === undefined) return undefined;
      ctx.answered(HAR_LAYER, `${e.method} ${e.status}`);
      return replayed(ctx, e);
    },
    async handle(ctx) {
      const entries = index.byPath.get(ctx.pathname);
      if (entries === undefined) return undefined;
      await started;
      const e = await entryFor(entries, ctx, queryOf(ctx), options.bodyLimit);
      if (e === undefined) return noRecording(ctx, entries, HAR_LAYER, options.fallback);
      ctx.answered(HAR_LAYER, `${e.method} ${e.status}`);
      return replayed(ctx, e);
    },
  };
}
