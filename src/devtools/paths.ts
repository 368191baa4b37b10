/**
 * Where the devtools live (the page at `/_mockyard/`, the admin API below it) and how a host
 * names the engines it holds: the one module the admin API, the page route, the engine shell and
 * the hosts' start-up lines read these from.
 */
import type { Engine } from '../core/engine.js';

/** Where the devtools live: the page at `/_mockyard/`, the admin API below it. */
export const DEVTOOLS_BASE = '/_mockyard';
/** Where the admin API lives (fixed, like the collector's `/_tracker`). */
export const ADMIN_BASE = `${DEVTOOLS_BASE}/api`;

/** The `kind` of the engine a node host holds at DEVTOOLS_BASE when the devtools are off. */
export const DEVTOOLS_OFF_KIND = 'devtools-off';

/** Whether `engine` is the devtools engine (hosts name it in their start-up lines); when off, `off: true` asks for the placeholder. */
export function isDevtoolsEngine(engine: Engine, off = false): boolean {
  return engine.prefixes.length === 1 && engine.prefixes[0] === DEVTOOLS_BASE && (engine.kind === DEVTOOLS_OFF_KIND) === off;
}

/** The collector's base path (its routes live under it), or '' when there is no collector. */
export function collectorBase(tracker: (Engine & { basePath?: string }) | undefined): string {
  return tracker ? (tracker.basePath ?? tracker.prefixes[0] ?? '') : '';
}
