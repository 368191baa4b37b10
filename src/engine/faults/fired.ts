/**
 * What the faults layer did to a request, kept on the Request (like the body bytes the journal
 * reads) so the journal can say which fault fired without a field on every exchange.
 */
export interface FaultFired {
  /** The rule: `GET /users/:id`. */
  readonly rule: string;
  /** `error` (a status answered), a connection fault type, or `delay` (only the delay applied). */
  readonly type: string;
  readonly status?: number;
  /** The drawn delay, ms (rounded to 0.1). */
  readonly delay?: number;
  readonly seed?: number | string;
}

export const kFaultFired = Symbol.for('mockyard.faultFired');

export function faultFiredOf(request: Request): FaultFired | undefined {
  return (request as unknown as Record<symbol, unknown>)[kFaultFired] as FaultFired | undefined;
}

export function recordFault(request: Request, fired: FaultFired): void {
  (request as unknown as Record<symbol, unknown>)[kFaultFired] = fired;
}
