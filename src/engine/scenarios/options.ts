/**
 * `scenarios`, resolved next to the code that builds their pipelines (scenario-sources.ts, scenario-pipelines.ts):
 * `{ name: { handlers, fsDir, delay, disabled, faults } }`, names a header or query parameter can
 * carry, each scenario's handlers checked as the base ones are.
 */
import { check, describe, isPlainObject, OptionsError } from '../../core/options.js';
import { resolveDelay, type DrawDelay } from '../delay.js';
import { resolveFaultRules, type FaultRule } from '../faults/options.js';
import { insideFs } from '../files/options.js';
import type { GraphqlOperationHandler } from '../handler-api/operation-handlers.js';
import { fail, graphqlHandlersIn, resolveHandlers } from '../handlers/options.js';
import type { RestHandler } from '../types.js';

/** Scenario names: what a header or query parameter can carry without escaping. */
const SCENARIO_NAME = /^[A-Za-z0-9][A-Za-z0-9._~-]{0,63}$/;

export interface ResolvedScenario {
  name: string;
  /** Handlers tried before the base ones. */
  handlers: RestHandler[];
  /** GraphQL handlers tried before the base ones. */
  graphqlHandlers: GraphqlOperationHandler[];
  /**
   * The scenario's mock folder: inside `fs` (normalised) when `fs` is given, else relative to
   * `root` like the base fsDir; undefined = the base files only.
   */
  fsDir: string | undefined;
  /** Global delay for this scenario, ms or a range (undefined = the base delay). */
  delay: DrawDelay | undefined;
  /** Base handlers switched off in this scenario: `pattern` or `METHOD pattern`. */
  disabled: string[];
  /** Fault rules tried before the base ones (src/engine/faults/). */
  faults: FaultRule[];
}

export function resolveScenarios(value: unknown, option: string, withFs: boolean, warnings: string[]): ResolvedScenario[] {
  if (value === undefined || value === null) return [];
  if (!isPlainObject(value)) throw new OptionsError(option, `must be an object keyed by scenario name (got ${describe(value)})`);
  return Object.entries(value).map(([name, v]) => {
    const at = `${option}.${name}`;
    if (!SCENARIO_NAME.test(name)) throw new OptionsError(at, 'is not a valid scenario name (letters, digits, ".", "_", "~", "-"; at most 64; starting with a letter or digit)');
    if (!isPlainObject(v)) throw new OptionsError(at, `must be an object { handlers, fsDir, delay, disabled, faults } (got ${describe(v)})`);
    check.knownKeys(v, at, ['handlers', 'fsDir', 'delay', 'disabled', 'faults']);
    let fsDir = check.string(v.fsDir, `${at}.fsDir`, undefined, { nonEmpty: true });
    if (fsDir !== undefined && withFs) fsDir = insideFs(fsDir, `${at}.fsDir`, 'folder', v.fsDir);
    const disabled = check.array<unknown>(v.disabled, `${at}.disabled`);
    disabled.forEach((d, i) => { if (typeof d !== 'string' || d.trim() === '') fail(`${at}.disabled`, i, 'a handler pattern ("/users/:id" or "GET /users/:id")', d); });
    const delay = resolveDelay(v.delay, `${at}.delay`);
    return { name, handlers: resolveHandlers(v.handlers, `${at}.handlers`, warnings), graphqlHandlers: graphqlHandlersIn(v.handlers), fsDir, delay, disabled: (disabled as string[]).map((d) => d.trim()), faults: resolveFaultRules(v.faults, `${at}.faults`) };
  });
}
