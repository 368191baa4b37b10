/**
 * The `sessions` option: `false` turns sessions off (the header, cookie and parameter then mean
 * nothing); otherwise `{ idleTimeout, max, clock }`:
 *   idleTimeout  ms a session may stay unused before it is dropped (default 30 min);
 *   max          sessions kept at most; creating one more drops the one idle longest (default 1000);
 *   clock        () => epoch ms (tests inject one to expire sessions without waiting).
 */
import { check, OptionsError, describe } from '../../core/options.js';

/** What users write (`mock.sessions`). */
export type SessionsOption = false | { idleTimeout?: number; max?: number; clock?: () => number };

export const DEFAULT_SESSION_IDLE_MS = 30 * 60_000;
export const DEFAULT_MAX_SESSIONS = 1000;

export interface ResolvedSessions {
  readonly enabled: boolean;
  readonly idleTimeout: number;
  readonly max: number;
  readonly clock: () => number;
}

export function resolveSessions(value: unknown, option: string): ResolvedSessions {
  if (value === false) return { enabled: false, idleTimeout: DEFAULT_SESSION_IDLE_MS, max: DEFAULT_MAX_SESSIONS, clock: Date.now };
  if (value === undefined || value === true || value === null) return { enabled: true, idleTimeout: DEFAULT_SESSION_IDLE_MS, max: DEFAULT_MAX_SESSIONS, clock: Date.now };
  const o = check.object(value, option);
  if (o === undefined) throw new OptionsError(option, `must be false or an object { idleTimeout, max, clock } (got ${describe(value)})`);
  check.knownKeys(o, option, ['idleTimeout', 'max', 'clock']);
  const clock = check.fn<() => number>(o.clock, `${option}.clock`) ?? Date.now;
  return {
    enabled: true,
    idleTimeout: check.number(o.idleTimeout, `${option}.idleTimeout`, DEFAULT_SESSION_IDLE_MS, { min: 1 }),
    max: check.number(o.max, `${option}.max`, DEFAULT_MAX_SESSIONS, { min: 1, integer: true }),
    clock,
  };
}
