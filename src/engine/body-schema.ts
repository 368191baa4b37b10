/**
 * A handler's `body` schema: types `req.body` and checks it at run time, after parsing and
 * before the handlerMiddlewares. Either
 *   - a Standard Schema (https://standardschema.dev: zod ≥ 3.24, valibot, arktype, …), whose
 *     issues become the 400's `details.issues`, or
 *   - a type guard `(body: unknown) => body is T` (false → 400).
 * A failed check is a 400 `Invalid request body` through the errorMiddlewares.
 */
import { HttpError } from '../core/errors.js';
import { describe, OptionsError } from '../core/options.js';

/** The part of the Standard Schema v1 interface mockyard uses. */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (value: unknown) => StandardResult<Output> | Promise<StandardResult<Output>>;
    readonly types?: { readonly input: Input; readonly output: Output } | undefined;
  };
}

export type StandardResult<Output> =
  | { readonly value: Output; readonly issues?: undefined }
  | { readonly issues: ReadonlyArray<{ readonly message: string; readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> | undefined }> };

export type BodySchema<T = unknown> = StandardSchemaV1<unknown, T> | ((body: unknown) => body is T);

/** Checks the option at start-up (`mock.handlers[i].body`). */
export function checkBodySchema(value: unknown, option: string): void {
  if (value === undefined || typeof value === 'function') return;
  const std = (value as { '~standard'?: { validate?: unknown } } | null)?.['~standard'];
  if (value && typeof value === 'object' && typeof std?.validate === 'function') return;
  throw new OptionsError(option, `must be a Standard Schema (zod, valibot, arktype…) or a type guard function (got ${describe(value)})`);
}

function pathOf(path: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> | undefined): string {
  return (path ?? []).map((p) => String(typeof p === 'object' ? p.key : p)).join('.');
}

/** The checked body (a schema may transform it); throws the 400 when it does not pass. */
export async function validateBody(schema: BodySchema, body: unknown): Promise<unknown> {
  if (typeof schema === 'function') {
    if (schema(body)) return body;
    throw new HttpError(400, 'Invalid request body');
  }
  const result = await schema['~standard'].validate(body);
  if (result.issues === undefined) return result.value;
  const issues = result.issues.map((i) => ({ path: pathOf(i.path), message: i.message }));
  throw new HttpError(400, 'Invalid request body', { details: { issues } });
}
