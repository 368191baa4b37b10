/**
 * What the openapi layer found about a request, kept on the Request (like the fault that fired,
 * faults/fired.ts) so the journal can mark the entry without a field on every exchange:
 *   - the operation it refused the request for (400 invalid, 401/406/415 from the contract) or
 *     whose documented answer the response broke (`operation`: `{ label, operationId }`);
 *   - what the answer broke (`violations`, response-check.ts).
 */
import type { AnswerProblem } from './response-check.js';

export interface ContractViolations {
  /** The operation the answer was checked against: `GET /pets/{petId}`. */
  readonly operation: string;
  /** The answer's status as the layers after the check gave it (strict mode then answers 500). */
  readonly status: number;
  readonly problems: readonly AnswerProblem[];
}

/** The document's operation a journal entry belongs to (the page links it to the OpenAPI tab). */
export interface OperationRef {
  /** `GET /pets/{petId}`: the method and the document's path template. */
  readonly label: string;
  /** The operation's `operationId`, or null when the document gives none. */
  readonly operationId: string | null;
}

export const kContractViolations = Symbol.for('mockyard.contractViolations');
const kOperation = Symbol.for('mockyard.openapiOperation');

export function contractViolationsOf(request: Request): ContractViolations | undefined {
  return (request as unknown as Record<symbol, unknown>)[kContractViolations] as ContractViolations | undefined;
}

export function recordContractViolations(request: Request, violations: ContractViolations): void {
  (request as unknown as Record<symbol, unknown>)[kContractViolations] = violations;
}

export function openApiOperationOf(request: Request): OperationRef | undefined {
  return (request as unknown as Record<symbol, unknown>)[kOperation] as OperationRef | undefined;
}

export function recordOpenApiOperation(request: Request, operation: OperationRef): void {
  (request as unknown as Record<symbol, unknown>)[kOperation] = operation;
}
