/**
 * The faults layer (with fault rules, options.ts): a request that
 * matches a rule (first match wins) waits the rule's delay, then with the rule's error rate
 * either gets its status (the JSON error body) or a connection fault (the Request is marked,
 * core/connection-fault.ts, and the host acts on it: `connection-reset` and `no-answer` answer
 * here at once, the others let the pipeline answer and the host spoils that answer). What fired
 * is kept on the Request for the journal (fired.ts). Requests that match no rule pass on at once,
 * on the fast path too.
 * Order: after the route overrides, before openapi and every answering layer: a fault delays or
 *   replaces whatever would answer (a route override's fault, marked first, wins).
 */
import { connectionFaultOf, markConnectionFault, type ConnectionFault } from '../../core/connection-fault.js';
import { errorResponse } from '../../core/errors.js';
import { FastResponse } from '../../core/fast-response.js';
import type { RequestContext } from '../context.js';
import { delayDraw, type DrawDelay, type Random } from '../delay.js';
import { compilePattern, ruleTakes, type CompiledPattern } from '../handler-api/pattern.js';
import { PASS, type Layer } from '../pipeline/layer.js';
import type { EngineServices } from '../services.js';
import { recordFault, type FaultFired } from './fired.js';
import { seededRandom } from './random.js';
import type { FaultRule } from './options.js';

interface CompiledRule {
  readonly label: string;
  readonly method: string;
  readonly pattern: CompiledPattern;
  readonly random: Random;
  readonly delay: DrawDelay | undefined;
  readonly rate: number;
  readonly status: number;
  readonly fault: ConnectionFault | undefined;
  readonly seed: number | string | undefined;
  /** Whether a failure is possible at all (a status or a fault asked for). */
  readonly fails: boolean;
}

function compile(rule: FaultRule): CompiledRule {
  const random = seededRandom(rule.seed);
  const method = (rule.method ?? '*').toUpperCase();
  const fault = typeof rule.fault === 'string' ? { type: rule.fault } : rule.fault;
  return {
    label: `${method} ${rule.path}`,
    method,
    pattern: compilePattern(rule.path),
    random,
    delay: rule.delay === undefined ? undefined : delayDraw(rule.delay, random),
    rate: rule.errorRate ?? 1,
    status: rule.status ?? 503,
    fault,
    seed: rule.seed,
    fails: fault !== undefined || rule.status !== undefined || rule.errorRate !== undefined,
  };
}

export function createFaultLayer(rules: readonly FaultRule[], services: EngineServices): Layer {
  const compiled = rules.map(compile);

  const match = (ctx: RequestContext): CompiledRule | undefined => compiled.find((r) => ruleTakes(r.method, r.pattern, ctx.method, ctx.subPath));

  return {
    name: 'faults',
    peek(ctx) {
      return match(ctx) === undefined ? PASS : undefined;
    },
    async handle(ctx) {
      const rule = match(ctx);
      if (rule === undefined) return undefined;
      // A connection fault already asked for by an earlier list (a session's or a saved
      // scenario's override, sessions/layer.ts) wins over this one: first list first.
      if (connectionFaultOf(ctx.request) !== undefined) return undefined;
      const wait = rule.delay?.() ?? 0;
      const fails = rule.fails && (rule.rate >= 1 || rule.random() < rule.rate);
      const fired: FaultFired = {
        rule: rule.label,
        type: !fails ? 'delay' : rule.fault ? rule.fault.type : 'error',
        ...(fails && !rule.fault ? { status: rule.status } : {}),
        ...(wait > 0 ? { delay: Math.round(wait * 10) / 10 } : {}),
        ...(rule.seed !== undefined ? { seed: rule.seed } : {}),
      };
      if (fails || wait > 0) recordFault(ctx.request, fired);
      if (wait > 0) await services.sleep(wait);
      if (!fails) return undefined;
      if (rule.fault === undefined) {
        ctx.answered('faults', rule.label);
        return errorResponse(rule.status, `Injected fault (${rule.label})`, ctx.pathname, { head: ctx.method === 'HEAD' });
      }
      markConnectionFault(ctx.request, rule.fault);
      if (rule.fault.type === 'connection-reset' || rule.fault.type === 'no-answer') {
        ctx.answered('faults', rule.label);
        return FastResponse.empty(503, { 'Content-Length': '0' }); // never sent: the host acts on the mark
      }
      return undefined;
    },
  };
}
