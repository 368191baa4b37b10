/**
 * Route overrides kept outside sessions (`api.routeOverrides`, the admin API's `overrides` and
 * `scenarios/<name>` routes, the devtools' Routes tab):
 *
 *   shared   applies to every request that names no session (base and configured scenarios);
 *   saved    named scenarios made of overrides, created at run time: selectable like the
 *            configured ones (`api.useScenario(name)`, the X-Mockyard-Scenario header, the
 *            `?scenario=` parameter, a session's scenario), walked by the base pipeline with the
 *            scenario's overrides first.
 *
 * Each list is an immutable array replaced on every change (newest first, as a session's), so the
 * route-overrides layer (sessions/layer.ts) — the one mechanism sessions use too —
 * compiles a combination once. Every override is validated as a session's (overrides.ts: a 400
 * naming the field). Undo: remove one by its index (0 = the newest), or drop a saved scenario.
 */
import { HttpError } from '../core/errors.js';
import { OptionsError } from '../core/options.js';
import { checkOverride, type SessionOverride } from './sessions/overrides.js';

/** Scenario names: what a header or query parameter can carry without escaping (as scenarios/options.ts). */
const SCENARIO_NAME = /^[A-Za-z0-9][A-Za-z0-9._~-]{0,63}$/;

export interface RouteOverrideControl {
  /** The shared overrides, newest first. */
  readonly shared: readonly SessionOverride[];
  /** Adds shared overrides (validated: 400 naming the field); returns the list. */
  add(overrides: readonly unknown[]): readonly SessionOverride[];
  /** Removes the shared override at `index` (as `shared` lists them): undo. false: no such index. */
  remove(index: number): boolean;
  /** Removes every shared override. */
  clear(): void;
  /** The saved scenarios: name → overrides (newest first), in the order saved. */
  readonly saved: ReadonlyMap<string, readonly SessionOverride[]>;
  /**
   * Adds overrides to saved scenario `name`, creating it when needed (400: a name a header cannot
   * carry; 409: a configured scenario's name); returns its list.
   */
  addTo(name: string, overrides: readonly unknown[]): readonly SessionOverride[];
  /** Removes the saved scenario's override at `index`. false: no such scenario or index. */
  removeFrom(name: string, index: number): boolean;
  /** Drops a saved scenario (the current scenario goes back to the base when it was this one). false: none. */
  drop(name: string): boolean;
}

export interface RouteOverrides extends RouteOverrideControl {
  /** Bumped on every change. */
  readonly version: number;
  /** Called when a saved scenario is dropped. */
  onDrop(fn: (name: string) => void): void;
}

/** Validates overrides as given over HTTP or the API (a session's, the shared ones, a saved scenario's): a 400 naming the field. */
export function checkOverrides(list: readonly unknown[]): SessionOverride[] {
  try {
    return list.map((o, i) => checkOverride(o, `overrides[${i}]`));
  } catch (err) {
    if (err instanceof OptionsError) throw new HttpError(400, err.message.replace(/^mockyard: /, ''));
    throw err;
  }
}

/** `configured`: the configured scenario names (a saved scenario cannot take one). */
export function createRouteOverrides(configured: readonly string[]): RouteOverrides {
  let shared: readonly SessionOverride[] = [];
  const saved = new Map<string, readonly SessionOverride[]>();
  const dropped: Array<(name: string) => void> = [];
  let version = 0;
  const without = (list: readonly SessionOverride[], index: number) => list.filter((_, i) => i !== index);
  const valid = (list: readonly SessionOverride[], index: number) => Number.isInteger(index) && index >= 0 && index < list.length;

  return {
    get shared() {
      return shared;
    },
    get saved() {
      return saved;
    },
    get version() {
      return version;
    },
    add(list) {
      shared = [...checkOverrides(list), ...shared]; // the newest first: it wins
      version++;
      return shared;
    },
    remove(index) {
      if (!valid(shared, index)) return false;
      shared = without(shared, index);
      version++;
      return true;
    },
    clear() {
      if (shared.length === 0) return;
      shared = [];
      version++;
    },
    addTo(name, list) {
      if (!SCENARIO_NAME.test(name)) throw new HttpError(400, `"${name.slice(0, 64)}" is not a valid scenario name (letters, digits, ".", "_", "~", "-"; at most 64; starting with a letter or digit)`);
      if (configured.includes(name)) throw new HttpError(409, `"${name}" is a configured scenario (mock.scenarios): choose another name for a saved one`);
      const next = [...checkOverrides(list), ...(saved.get(name) ?? [])];
      saved.set(name, next);
      version++;
      return next;
    },
    removeFrom(name, index) {
      const list = saved.get(name);
      if (list === undefined || !valid(list, index)) return false;
      saved.set(name, without(list, index));
      version++;
      return true;
    },
    drop(name) {
      if (!saved.delete(name)) return false;
      version++;
      for (const fn of dropped) fn(name);
      return true;
    },
    onDrop(fn) {
      dropped.push(fn);
    },
  };
}
