/**
 * What the openapi layer found wrong with an answer (response-check.ts), kept on the Request
 * (like the fault that fired, faults/fired.ts) so the journal can mark the entry without a field
 * on every exchange.
 */
import type { AnswerProblem } from './response-check.js';

export interface ContractViolations {
  /** The operation the answer was checked against: `GET /pets/{petId}`. */
  readonly operation: string;
  /** The answer's status as the layers after the check gave it (strict mode then answers 500). */
  readonly status: number;
  readonly problems: readonly AnswerProblem[];
}

export const kContractViolations = Symbol.for('mockyard.contractViolations');

export function contractViolationsOf(request: Request): ContractViolations | undefined {
  return (request as unknown as Record<symbol, unknown>)[kContractViolations] as ContractViolations | undefined;
}

export function recordContractViolations(request: Request, violations: ContractViolations): void {
  (request as unknown as Record<symbol, unknown>)[kContractViolations] = violations;
}
