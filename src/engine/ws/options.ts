/**
 * `wsHandlers`, resolved next to the WebSocket layer: each `{ pattern, onMessage, heartbeat? }`
 * checked at start-up (routes.ts compiles them when `enableWs` is on).
 */
import { check, describe, OptionsError } from '../../core/options.js';
import { lintPattern } from '../handler-api/pattern-lint.js';
import type { WsHandler } from '../types.js';

export function resolveWsHandlers(value: unknown, option: string, warnings: string[]): WsHandler[] {
  const arr = check.array<unknown>(value, option);
  arr.forEach((h, i) => {
    const at = `${option}[${i}]`;
    if (!h || typeof h !== 'object' || Array.isArray(h)) throw new OptionsError(at, `must be an object (got ${describe(h)})`);
    const o = h as Record<string, unknown>;
    if (typeof o.pattern !== 'string' || o.pattern === '') throw new OptionsError(`${at}.pattern`, `must be a non-empty string (got ${describe(o.pattern)})`);
    const foreign = lintPattern(o.pattern, `${at}.pattern`);
    if (foreign && o.disabled !== true) warnings.push(foreign);
    // A handler that only pushes (`onConnect` alone) is whole; one with neither callback does nothing.
    const pushOnly = o.onMessage === undefined && typeof o.onConnect === 'function'; // its clients' messages go unanswered
    if (!pushOnly && typeof o.onMessage !== 'function') throw new OptionsError(`${at}.onMessage`, `must be a function (got ${describe(o.onMessage)}); a handler that only pushes may give onConnect alone`);
    check.number(o.heartbeat, `${at}.heartbeat`, 0, { min: 0 });
  });
  return arr as WsHandler[];
}
