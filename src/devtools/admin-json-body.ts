/**
 * The admin API's JSON request bodies (the Data tab's items, imports and changes): read within a
 * limit (core/body.ts), parsed and checked by the JSON rule of every body (core/json-safety.ts);
 * an empty body is a 400.
 */
import { readBody } from '../core/body.js';
import { HttpError } from '../core/errors.js';
import { assertNoForbiddenKeys, parseJsonBytes } from '../core/json-safety.js';

/** An item or a change. */
export const ITEM_LIMIT = 1024 * 1024;
/** Imports may be large (a 100k-item collection exported and loaded back). */
export const IMPORT_LIMIT = 64 * 1024 * 1024;

export type JsonObject = Record<string, unknown>;

export const isJsonObject = (v: unknown): v is JsonObject => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The request's JSON body (required). */
export async function jsonBody(request: Request, limit: number): Promise<unknown> {
  const bytes = await readBody(request, limit);
  if (bytes.byteLength === 0) throw new HttpError(400, 'A JSON body is required');
  const value = parseJsonBytes(bytes);
  assertNoForbiddenKeys(value);
  return value;
}

/** The request's JSON body, which must be an object (`message` otherwise, a 400). */
export async function jsonObjectBody(request: Request, limit: number, message = 'The body must be a JSON object'): Promise<JsonObject> {
  const value = await jsonBody(request, limit);
  if (!isJsonObject(value)) throw new HttpError(400, message);
  return value;
}
