/** Validates a HAR log against the HAR 1.2 JSON Schema (har-schema, draft-06) with Ajv. */
import { createRequire } from 'node:module';
import { Ajv, type ErrorObject } from 'ajv';

const require = createRequire(import.meta.url);

let validate: ((data: unknown) => boolean) & { errors?: ErrorObject[] | null } | undefined;

export function harErrors(har: unknown): ErrorObject[] {
  if (!validate) {
    const ajv = new Ajv({ strict: false, allErrors: true });
    ajv.addMetaSchema(require('ajv/dist/refs/json-schema-draft-06.json') as object);
    const schemas = require('har-schema') as Record<string, object>;
    for (const schema of Object.values(schemas)) ajv.addSchema(schema);
    validate = ajv.getSchema('har.json#') as typeof validate;
  }
  return validate!(har) ? [] : [...(validate!.errors ?? [])];
}
