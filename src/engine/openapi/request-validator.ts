/**
 * Request validation against an OpenAPI document (the `openapi` layer): requests are matched on
 * the document's one path table (openapi-document/document-loader.ts `documentModel`, shared with the generated
 * backend); each operation's parameters and JSON body schema are built and compiled with Ajv on
 * the operation's first request (Ajv2020 for OpenAPI 3.1, Ajv draft-07 for 3.0 / Swagger 2;
 * strict mode and meta-schema validation off: documents are taken as the tools that wrote them
 * meant them). An operation's schemas are gathered from the document by following its `$ref`s
 * (openapi/schema-bundle.ts: each target once, recursion as a `$ref` into the bundle, OpenAPI
 * 3.0 `nullable` as a type union).
 * An operation whose schemas cannot compile is reported once (`onUncompilable`) and answered
 * unvalidated; the rest of the API is not affected.
 *
 *   match(method, subPath) → { operation } | { status: 404 } (path not in the document)
 *                            | { status: 405, allow } (path there, method not)
 *   operation.check(params) → the readable problems (`query.limit must be <= 100`), first 10.
 *
 * Paths: concrete segments before templates (`/pets/mine` before `/pets/{id}`), as OpenAPI says;
 * a path is matched below the engine prefix (the prefix stands for the document's server URL).
 * Query and path values are strings on the wire: Ajv coerces them to the schema's types
 * (`coerceTypes: 'array'`, so a single `?tag=a` also satisfies an array).
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsImport from 'ajv-formats';
import { isJsonMediaType, parseMediaType } from '../../core/media-type.js';
import { documentModel } from '../openapi-document/document-loader.js';
import { isObj } from '../../core/json-object.js';
import { parametersOf, swaggerParamSchema, type Operation } from '../openapi-document/operations.js';
import { bundleSchema } from './schema-bundle.js';

type Obj = Record<string, unknown>;
const addFormats = addFormatsImport as unknown as (ajv: Ajv) => Ajv;

export const MAX_LISTED_ERRORS = 10;

/**
 * An Ajv for a document's schemas (Ajv2020 for OpenAPI 3.1, draft-07 otherwise). validateSchema
 * off: the schemas are not checked against the JSON Schema meta-schema (compiling it costs more
 * than a big document's first operation); a schema Ajv cannot compile is still reported. `coerce`:
 * values arrive as text (query, path, form fields) and are coerced to the schema's types.
 */
export function createAjv(v31: boolean, coerce: boolean): Ajv {
  const o = { strict: false, allErrors: true, logger: false as const, validateSchema: false, ...(coerce ? { coerceTypes: 'array' as const, useDefaults: false } : {}) };
  const a = (v31 ? new Ajv2020(o) : new Ajv(o)) as Ajv;
  addFormats(a);
  for (const f of ['int32', 'int64', 'float', 'double', 'byte', 'binary', 'password']) a.addFormat(f, true);
  return a;
}

export interface Problem {
  /** `query`, `path`, `header`, `body`. */
  in: string;
  /** Dotted location inside it (`limit`, `owner.name`, `` for the whole body). */
  at: string;
  message: string;
}

export interface RequestParts {
  path: Record<string, string>;
  query: URLSearchParams;
  headers: Headers;
  /** The parsed JSON body, when the operation has one and it was read. */
  body?: unknown;
  /** A form body's fields (urlencoded or multipart), strings as sent: coerced to the schema's types. */
  form?: Record<string, unknown>;
}

export interface CompiledOperation {
  /** `GET /pets/{petId}` */
  label: string;
  /** The operation takes a JSON request body (so the layer reads it). */
  readonly jsonBody: boolean;
  readonly bodyRequired: boolean;
  /** The operation takes a form body (`application/x-www-form-urlencoded`, `multipart/form-data`; Swagger's formData). */
  readonly formBody: boolean;
  check(parts: RequestParts): Problem[];
  /**
   * Problems of an answer's JSON body against the schema of the documented response `code`
   * (`200`, `2XX`, `default`, as response-check.ts picked it for the answer's status).
   * `undefined` = the document says nothing to check (no JSON schema for that code).
   */
  checkResponse(code: string, body: unknown): Problem[] | undefined;
  /** The documented response `code` has a JSON schema (so the body is worth reading). */
  hasResponseSchema(code: string): boolean;
}

export type Match =
  | { operation: CompiledOperation; params: Record<string, string> }
  | { status: 404 }
  | { status: 405; allow: string };

interface ParamSpec {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  schema: Obj;
  /** Query serialisation (OpenAPI 3): `form` (default), `deepObject`, `spaceDelimited`, `pipeDelimited`. */
  style: string;
  explode: boolean;
  /** The schema (dereferenced) is an object / an array. */
  shape: 'object' | 'array' | 'scalar';
}

const FORM_TYPES = new Set(['application/x-www-form-urlencoded', 'multipart/form-data']);

/**
 * A query parameter's value as its style serialises it (OpenAPI 3 "Style Values"): an object as
 * `deepObject` (`filter[kind]=cat`), `form` exploded (its properties as parameters:
 * `?offset=1&limit=5`) or not (`?pagination=offset,0,limit,10`); an array `form` not exploded
 * (`?ids=1,2`) or space/pipe delimited.
 */
function queryValue(s: ParamSpec, query: URLSearchParams): unknown {
  if (s.shape === 'object') {
    if (s.style === 'deepObject') {
      const out: Obj = {};
      const prefix = `${s.name}[`;
      for (const [k, v] of query) if (k.startsWith(prefix) && k.endsWith(']')) out[k.slice(prefix.length, -1)] = v;
      return Object.keys(out).length ? out : undefined;
    }
    if (s.style === 'form' && s.explode) {
      const props = isObj(s.schema.properties) ? Object.keys(s.schema.properties) : [];
      const out: Obj = {};
      for (const p of props) if (query.has(p)) out[p] = query.get(p);
      return Object.keys(out).length ? out : undefined;
    }
    const raw = query.get(s.name);
    if (raw === null) return undefined;
    const parts = raw.split(',');
    const out: Obj = {};
    for (let i = 0; i + 1 < parts.length; i += 2) out[parts[i]!] = parts[i + 1];
    return out;
  }
  const all = query.getAll(s.name);
  if (!all.length) return undefined;
  if (s.shape === 'array' && all.length === 1) {
    const sep = s.style === 'spaceDelimited' ? ' ' : s.style === 'pipeDelimited' ? '|' : s.style === 'form' && !s.explode ? ',' : undefined;
    if (sep !== undefined) return all[0]!.split(sep);
  }
  return all.length === 1 ? all[0] : all;
}

function problemsOf(errors: ErrorObject[] | null | undefined): Problem[] {
  const out: Problem[] = [];
  for (const e of errors ?? []) {
    const segs = e.instancePath.split('/').slice(1).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
    const where = segs.shift() ?? '';
    let at = segs.join('.');
    let message = e.message ?? 'is invalid';
    if (e.keyword === 'required' && typeof (e.params as { missingProperty?: string }).missingProperty === 'string') {
      const missing = (e.params as { missingProperty: string }).missingProperty;
      at = at ? `${at}.${missing}` : missing;
      message = 'is required';
    } else if (e.keyword === 'additionalProperties') {
      const extra = (e.params as { additionalProperty?: string }).additionalProperty;
      at = at ? `${at}.${extra}` : String(extra);
      message = 'is not allowed';
    } else if (e.keyword === 'enum') {
      message = `must be one of ${JSON.stringify((e.params as { allowedValues?: unknown[] }).allowedValues ?? [])}`;
    }
    out.push({ in: where === 'headers' ? 'header' : where, at, message });
    if (out.length >= MAX_LISTED_ERRORS) break;
  }
  return out;
}

export interface CompileOptions {
  /** An operation whose schemas cannot compile (called once per operation). */
  onUncompilable?: (label: string, err: unknown) => void;
}

/** The checks of a document's operations, matched on its path table; each compiles on first use. */
export function compileDocument(doc: Obj, options: CompileOptions = {}): { match(method: string, subPath: string): Match; operations: number } {
  const { deref } = documentModel(doc);
  const swagger = doc.swagger === '2.0';
  const v31 = typeof doc.openapi === 'string' && doc.openapi.startsWith('3.1');
  let ajvs: { ajv: Ajv; bodyAjv: Ajv } | undefined;
  // A JSON body is validated without coercion ("7" is not a number in JSON).
  const compilers = () => (ajvs ??= { ajv: createAjv(v31, true), bodyAjv: createAjv(v31, false) });
  const bundle = (schema: unknown) => bundleSchema(schema, deref, v31);

  function compileOperation(item: Obj, op: Obj, method: string, template: string): CompiledOperation {
    const specs = new Map<string, ParamSpec>();
    let bodySchema: unknown;
    let bodyRequired = false;
    let formSchema: unknown;
    const formProps: Obj = {};
    const formRequired: string[] = [];
    for (const p of parametersOf(item, op, deref)) {
      if (swagger && p.in === 'body') {
        bodySchema = p.schema ?? {};
        bodyRequired = p.required === true;
        continue;
      }
      if (swagger && p.in === 'formData') {
        formProps[p.name] = p.type === 'file' ? {} : swaggerParamSchema(p);
        if (p.required === true) formRequired.push(p.name);
        continue;
      }
      if (p.in !== 'path' && p.in !== 'query' && p.in !== 'header') continue;
      const schema = swagger ? swaggerParamSchema(p) : p.schema ?? {};
      const name = p.in === 'header' ? p.name.toLowerCase() : p.name;
      const resolved = deref(schema);
      const shape = isObj(resolved) && (resolved.type === 'object' || (resolved.type === undefined && isObj(resolved.properties))) ? 'object' : isObj(resolved) && (resolved.type === 'array' || (swagger && p.type === 'array')) ? 'array' : 'scalar';
      const style = typeof p.style === 'string' ? p.style : swagger && p.collectionFormat === 'csv' ? 'form' : 'form';
      const explode = typeof p.explode === 'boolean' ? p.explode : swagger ? p.collectionFormat === 'multi' : style === 'form';
      specs.set(`${p.in}:${name}`, { name, in: p.in, required: p.in === 'path' || p.required === true, schema: (isObj(resolved) ? resolved : schema) as Obj, style, explode, shape });
    }
    const requestBody = deref(op.requestBody);
    if (!swagger && isObj(requestBody)) {
      const content = isObj(requestBody.content) ? requestBody.content : {};
      const key = Object.keys(content).find((t) => isJsonMediaType(parseMediaType(t).type));
      const media = key === undefined ? undefined : deref(content[key]);
      if (isObj(media)) {
        bodySchema = media.schema ?? {};
        bodyRequired = requestBody.required === true;
      }
      const formKey = Object.keys(content).find((t) => FORM_TYPES.has(parseMediaType(t).type));
      const formMedia = formKey === undefined ? undefined : deref(content[formKey]);
      if (isObj(formMedia)) {
        formSchema = formMedia.schema ?? {};
        bodyRequired ||= requestBody.required === true;
      }
    }
    if (swagger && Object.keys(formProps).length) {
      formSchema = { type: 'object', properties: formProps, required: formRequired };
      bodyRequired ||= formRequired.length > 0;
    }
    const group = (where: 'path' | 'query' | 'header') => {
      const properties: Obj = {};
      const required: string[] = [];
      for (const s of specs.values()) {
        if (s.in !== where) continue;
        properties[s.name] = s.schema;
        if (s.required) required.push(s.name);
      }
      return { type: 'object', properties, required };
    };
    const responseSchemas = new Map<string, unknown>();
    if (isObj(op.responses)) {
      for (const [code, r0] of Object.entries(op.responses)) {
        const response = deref(r0);
        if (!isObj(response)) continue;
        let schema: unknown;
        if (swagger) schema = response.schema;
        else if (isObj(response.content)) {
          const key = Object.keys(response.content).find((t) => isJsonMediaType(parseMediaType(t).type));
          const media = key === undefined ? undefined : deref(response.content[key]);
          if (isObj(media)) schema = media.schema;
        }
        if (isObj(schema)) responseSchemas.set(code.toUpperCase(), schema);
      }
    }
    const label = `${method.toUpperCase()} ${template}`;
    // Compiled on first use; a part that cannot compile is reported once and left unchecked.
    let failed = false;
    const compile = (ajv: Ajv, schema: unknown): ValidateFunction | undefined => {
      if (failed) return undefined;
      try {
        return ajv.compile(bundle(schema));
      } catch (err) {
        failed = true;
        options.onUncompilable?.(label, err);
        return undefined;
      }
    };
    let validateParams: ValidateFunction | undefined | null = null;
    let validateBody: ValidateFunction | undefined | null = null;
    let validateForm: ValidateFunction | undefined | null = null;
    // Form fields are strings on the wire: coerced as query values are.
    const formCheck = () => (validateForm === null ? (validateForm = formSchema === undefined ? undefined : compile(compilers().ajv, { type: 'object', properties: { body: formSchema } })) : validateForm);
    const responseChecks = new Map<string, ValidateFunction | undefined>();
    const paramsCheck = () => (validateParams === null ? (validateParams = compile(compilers().ajv, { type: 'object', properties: { path: group('path'), query: group('query'), headers: group('header') } })) : validateParams);
    const bodyCheck = () => (validateBody === null ? (validateBody = bodySchema === undefined ? undefined : compile(compilers().bodyAjv, { type: 'object', properties: { body: bodySchema } })) : validateBody);
    const responseCheck = (code: string) => {
      if (!responseChecks.has(code)) responseChecks.set(code, compile(compilers().bodyAjv, { type: 'object', properties: { body: responseSchemas.get(code) } }));
      return responseChecks.get(code);
    };
    const querySpecs = [...specs.values()].filter((s) => s.in === 'query');
    const headerSpecs = [...specs.values()].filter((s) => s.in === 'header');
    return {
      label,
      jsonBody: bodySchema !== undefined,
      bodyRequired,
      formBody: formSchema !== undefined,
      check(parts) {
        const query: Obj = {};
        for (const s of querySpecs) {
          const value = queryValue(s, parts.query);
          if (value !== undefined) query[s.name] = value;
        }
        const headers: Obj = {};
        for (const s of headerSpecs) {
          const v = parts.headers.get(s.name);
          if (v !== null) headers[s.name] = v;
        }
        const data = { path: { ...parts.path }, query, headers };
        const validate = paramsCheck();
        const problems = !validate || validate(data) ? [] : problemsOf(validate.errors);
        const body = parts.body !== undefined ? bodyCheck() : undefined;
        if (body && problems.length < MAX_LISTED_ERRORS) {
          if (!body({ body: parts.body })) problems.push(...problemsOf(body.errors).slice(0, MAX_LISTED_ERRORS - problems.length));
        }
        const form = parts.form !== undefined ? formCheck() : undefined;
        if (form && problems.length < MAX_LISTED_ERRORS) {
          if (!form({ body: structuredClone(parts.form) })) problems.push(...problemsOf(form.errors).slice(0, MAX_LISTED_ERRORS - problems.length));
        }
        return problems;
      },
      hasResponseSchema: (code) => responseSchemas.has(code.toUpperCase()),
      checkResponse(code, body) {
        const key = code.toUpperCase();
        const validate = responseSchemas.has(key) ? responseCheck(key) : undefined;
        if (!validate) return undefined;
        return validate({ body }) ? [] : problemsOf(validate.errors);
      },
    };
  }

  const paths = isObj(doc.paths) ? doc.paths : {};
  const { model, route } = documentModel(doc);
  /** Each operation's checks, built and compiled on its first request: a big document costs only its route table. */
  const compiled = new Map<Operation, CompiledOperation>();
  const compiledOf = (operation: Operation): CompiledOperation => {
    let c = compiled.get(operation);
    if (c === undefined) {
      const item = deref(paths[operation.template]);
      compiled.set(operation, (c = compileOperation(isObj(item) ? item : {}, operation.op, operation.method.toLowerCase(), operation.template)));
    }
    return c;
  };

  return {
    operations: model.operations.length,
    match(method, subPath) {
      const found = route(method, subPath);
      if ('allow' in found) return { status: 405, allow: found.allow.join(', ') };
      return 'operation' in found ? { operation: compiledOf(found.operation), params: found.params } : found;
    },
  };
}
