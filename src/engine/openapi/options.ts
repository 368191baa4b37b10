/**
 * The `openapi` option (`mock.openapi`) as the validation layer (layer.ts) reads it:
 *   openapi: 'openapi.yaml' | the document object          requests checked against it
 *   openapi: { document, validateResponses?, strictResponses?, …the backend's keys }
 *     validateResponses   answers checked too, violations logged (default false)
 *     strictResponses     a violating answer becomes a 500 (default false)
 * The same option drives the generated backend: its keys (`mock`, `seed`, `count`, `state`, `ids`)
 * are read by openapi-backend/options.ts; the option list (engine/options.ts) joins both.
 */
import { check, describe, isPlainObject, OptionsError } from '../../core/options.js';

export interface OpenApiValidation {
  /** The document: a path/URL (read by the host's loader) or the document object. */
  source: string | object;
  validateResponses: boolean;
  strictResponses: boolean;
}

/**
 * Validates `openapi`; null without it. `otherKeys`: the keys the same object may hold for the
 * backend; `fields` is the object they are read from (empty for the short form).
 */
export function resolveOpenApiOption(value: unknown, option: string, otherKeys: readonly string[]): (OpenApiValidation & { fields: Record<string, unknown> }) | null {
  if (value === undefined || value === null) return null;
  const isSource = (v: unknown) => (typeof v === 'string' && v.trim() !== '') || isPlainObject(v);
  if (isPlainObject(value) && 'document' in value) {
    check.knownKeys(value, option, ['document', 'validateResponses', 'strictResponses', ...otherKeys]);
    if (!isSource(value.document)) throw new OptionsError(`${option}.document`, `must be the path of an OpenAPI document or the document object (got ${describe(value.document)})`);
    return { source: value.document as string | object, validateResponses: check.boolean(value.validateResponses, `${option}.validateResponses`, false), strictResponses: check.boolean(value.strictResponses, `${option}.strictResponses`, false), fields: value };
  }
  if (!isSource(value)) throw new OptionsError(option, `must be the path of an OpenAPI document, the document object or { document, validateResponses } (got ${describe(value)})`);
  return { source: value as string | object, validateResponses: false, strictResponses: false, fields: {} };
}
