/**
 * A value checked against one schema of a document (the payload of a callback or a 3.1 webhook
 * the mock is about to send, `openapi.validateResponses` / `strictResponses`): the schema made
 * self-contained (schema-bundle.ts, the document's dialect adapted), compiled once with Ajv as
 * the request validator compiles bodies (no coercion, formats), each problem as
 * `<JSON pointer> <message>`.
 */
import type { Ajv, ValidateFunction } from 'ajv';
import { bundleSchema, type Deref } from './schema-bundle.js';
import { createAjv, MAX_LISTED_ERRORS } from './request-validator.js';

export type PayloadCheck = (schema: unknown, value: unknown) => string[];

export function payloadChecker(doc: Record<string, unknown>, deref: Deref): PayloadCheck {
  const v31 = typeof doc.openapi === 'string' && doc.openapi.startsWith('3.1');
  let ajv: Ajv | undefined;
  const compiled = new Map<unknown, ValidateFunction | null>();
  return (schema, value) => {
    if (schema === undefined || schema === null) return [];
    let validate = compiled.get(schema);
    if (validate === undefined) {
      ajv ??= createAjv(v31, false);
      try {
        validate = ajv.compile(bundleSchema(schema, deref, v31));
      } catch {
        validate = null; // a schema Ajv cannot compile checks nothing
      }
      compiled.set(schema, validate);
    }
    if (validate === null || validate(value)) return [];
    return (validate.errors ?? []).slice(0, MAX_LISTED_ERRORS).map((e) => {
      const missing = e.keyword === 'required' ? (e.params as { missingProperty?: string }).missingProperty : undefined;
      return missing !== undefined ? `${e.instancePath}/${missing} is required` : `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`;
    });
  };
}
