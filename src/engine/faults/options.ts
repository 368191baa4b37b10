/**
 * Fault rules (docs/sessions.md "Faults"): what may go wrong on a route, declared as data.
 *
 *   { method: "GET", path: "/users/:id",          which requests (method "*" = any; default "*")
 *     delay: 200 | [100, 300] | { p50: 80, p99: 900 },
 *     errorRate: 0.2, status: 503,                 a share of them answered with that status
 *     fault: "connection-reset" | { type: "slow-body", bytesPerSecond: 1024 },
 *     seed: 42 }                                   draws replayable in order
 *
 * `errorRate` (default 1) is the share of matching requests that fail: with `fault` they get the
 * connection fault (core/connection-fault.ts), else the `status` (default 503) as the JSON error
 * body. The delay applies to every matching request. Rules come from `mock.faults` (routes), a
 * scenario's `faults`, a handler's `fault` (its own method and pattern) and a session override.
 */
import { CONNECTION_FAULT_TYPES } from '../../core/connection-fault.js';
import { check, describe, isPlainObject, OptionsError } from '../../core/options.js';
import { resolveDelay, type DelayOption } from '../delay.js';
import { compilePattern } from '../handler-api/pattern.js';
import type { RestHandler } from '../types.js';
import type { FaultOptions, FaultRule } from '../fault-spec.js';

export type { FaultOptions, FaultRule } from '../fault-spec.js';

export const FAULT_OPTION_KEYS = ['delay', 'errorRate', 'status', 'fault', 'seed'] as const;

/** Validates the fault fields of `o` (an object already known to be plain); returns a clean copy. */
export function checkFaultOptions(o: Record<string, unknown>, at: string): FaultOptions {
  const out: FaultOptions = {};
  if (o.delay !== undefined) {
    resolveDelay(o.delay, `${at}.delay`);
    out.delay = o.delay as DelayOption;
  }
  if (o.errorRate !== undefined) out.errorRate = check.number(o.errorRate, `${at}.errorRate`, 1, { min: 0, max: 1 });
  if (o.status !== undefined) out.status = check.number(o.status, `${at}.status`, 503, { min: 400, max: 599, integer: true });
  if (o.fault !== undefined) {
    const f = typeof o.fault === 'string' ? { type: o.fault } : o.fault;
    if (!isPlainObject(f)) throw new OptionsError(`${at}.fault`, `must be one of ${CONNECTION_FAULT_TYPES.map((t) => `"${t}"`).join(', ')} or { type, bytesPerSecond } (got ${describe(o.fault)})`);
    check.knownKeys(f, `${at}.fault`, ['type', 'bytesPerSecond']);
    const type = check.oneOf(f.type, `${at}.fault.type`, CONNECTION_FAULT_TYPES, 'connection-reset');
    if (f.type === undefined) throw new OptionsError(`${at}.fault.type`, 'is required');
    if (type === 'slow-body') {
      out.fault = { type, bytesPerSecond: check.number(f.bytesPerSecond, `${at}.fault.bytesPerSecond`, 1024, { min: 1 }) };
    } else {
      if (f.bytesPerSecond !== undefined) throw new OptionsError(`${at}.fault.bytesPerSecond`, 'applies to "slow-body" only');
      out.fault = { type };
    }
  }
  if (o.seed !== undefined) {
    if (!(typeof o.seed === 'string' || (typeof o.seed === 'number' && Number.isFinite(o.seed)))) throw new OptionsError(`${at}.seed`, `must be a number or a string (got ${describe(o.seed)})`);
    out.seed = o.seed;
  }
  return out;
}

/** Validates one rule (`{ method, path, …FaultOptions }`). */
export function checkFaultRule(value: unknown, at: string): FaultRule {
  if (!isPlainObject(value)) throw new OptionsError(at, `must be an object { method, path, delay, errorRate, status, fault, seed } (got ${describe(value)})`);
  check.knownKeys(value, at, ['method', 'path', ...FAULT_OPTION_KEYS]);
  const path = check.string(value.path, `${at}.path`, undefined, { nonEmpty: true });
  if (path === undefined) throw new OptionsError(`${at}.path`, 'is required (a handler pattern such as "/users/:id")');
  compilePattern(path, `${at}.path`);
  const method = check.string(value.method, `${at}.method`, '*', { nonEmpty: true })!.toUpperCase();
  if (method !== '*' && !/^[A-Z][A-Z0-9_-]*$/.test(method)) throw new OptionsError(`${at}.method`, `must be an HTTP method or "*" (got ${describe(value.method)})`);
  return { method, path, ...checkFaultOptions(value, at) };
}

/** `mock.faults` / a scenario's `faults`: an array of rules (validated). */
export function resolveFaultRules(value: unknown, option: string): FaultRule[] {
  return check.array<unknown>(value, option).map((r, i) => checkFaultRule(r, `${option}[${i}]`));
}

/** The rules a pipeline applies: its own, then its handlers' `fault` (each with the handler's method and pattern). */
export function faultRulesOf(rules: readonly FaultRule[], handlers: readonly RestHandler[], option = 'mock.handlers'): FaultRule[] {
  const out = [...rules];
  handlers.forEach((h, i) => {
    if (h.fault === undefined || h.disabled === true) return;
    const at = `${option}[${i}].fault`;
    if (!isPlainObject(h.fault)) throw new OptionsError(at, `must be an object { delay, errorRate, status, fault, seed } (got ${describe(h.fault)})`);
    check.knownKeys(h.fault, at, FAULT_OPTION_KEYS);
    out.push({ method: (h.method ?? 'GET').toUpperCase(), path: h.pattern, ...checkFaultOptions(h.fault as Record<string, unknown>, at) });
  });
  return out;
}
