/**
 * Request validation against an OpenAPI document (the `openapi` layer): compiled ONCE from the
 * dereferenced document into a route table, each operation's parameters and JSON body schema
 * compiled with Ajv (Ajv2020 for OpenAPI 3.1, Ajv draft-07 with `nullable` for 3.0 / Swagger 2).
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

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const addFormats = addFormatsImport as unknown as (ajv: Ajv) => Ajv;

export const MAX_LISTED_ERRORS = 10;
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

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
}

export interface CompiledOperation {
  /** `GET /pets/{petId}` */
  label: string;
  /** The operation takes a JSON request body (so the layer reads it). */
  readonly jsonBody: boolean;
  readonly bodyRequired: boolean;
  check(parts: RequestParts): Problem[];
  /**
   * Problems of an answer (`validateResponses`): the schema of its status (exact, then `2XX`,
   * then `default`); a JSON body is checked, anything else only for a documented status.
   * `undefined` = the document says nothing to check (no JSON schema for that status).
   */
  checkResponse(status: number, body: unknown): Problem[] | undefined;
  /** The answer for `status` has a JSON schema (so the body is worth reading). */
  hasResponseSchema(status: number): boolean;
}

export type Match =
  | { operation: CompiledOperation; params: Record<string, string> }
  | { status: 404 }
  | { status: 405; allow: string };

interface Route {
  regex: RegExp;
  names: string[];
  /** Template segment count (fewer = more concrete) for ordering. */
  templated: number;
  ops: Map<string, CompiledOperation>;
}

interface ParamSpec {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  schema: Obj;
}

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
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

function swaggerParamSchema(p: Obj): Obj {
  const { name: _n, in: _i, required: _r, description: _d, collectionFormat: _c, allowEmptyValue: _a, ...schema } = p;
  return schema;
}

/** Compiles a dereferenced document. Throws on a document Ajv cannot compile. */
export function compileDocument(doc: Obj): { match(method: string, subPath: string): Match; operations: number } {
  const swagger = doc.swagger === '2.0';
  const v31 = typeof doc.openapi === 'string' && doc.openapi.startsWith('3.1');
  const ajv = (v31
    ? new Ajv2020({ strict: false, allErrors: true, coerceTypes: 'array', useDefaults: false })
    : new Ajv({ strict: false, allErrors: true, coerceTypes: 'array', useDefaults: false })) as Ajv;
  addFormats(ajv);
  for (const f of ['int32', 'int64', 'float', 'double', 'byte', 'binary', 'password']) ajv.addFormat(f, true);
  // A JSON body is validated without coercion ("7" is not a number in JSON).
  const bodyAjv = (v31 ? new Ajv2020({ strict: false, allErrors: true }) : new Ajv({ strict: false, allErrors: true })) as Ajv;
  addFormats(bodyAjv);
  for (const f of ['int32', 'int64', 'float', 'double', 'byte', 'binary', 'password']) bodyAjv.addFormat(f, true);

  const routes: Route[] = [];
  let count = 0;
  const paths = isObj(doc.paths) ? doc.paths : {};
  for (const [template, item] of Object.entries(paths)) {
    if (!isObj(item)) continue;
    const names: string[] = [];
    let templated = 0;
    const pattern = template.split('/').filter(Boolean).map((seg) => {
      if (/^\{[^}]+\}$/.test(seg)) {
        names.push(seg.slice(1, -1));
        templated++;
        return '([^/]+)';
      }
      // Literal segments as they arrive on the wire (percent-encoded).
      return escapeRegex(encodeURI(seg));
    }).join('/');
    const route: Route = { regex: new RegExp(`^/${pattern}/?$`), names, templated, ops: new Map() };
    for (const method of METHODS) {
      const op = item[method];
      if (!isObj(op)) continue;
      count++;
      const specs = new Map<string, ParamSpec>();
      let bodySchema: Obj | undefined;
      let bodyRequired = false;
      for (const list of [item.parameters, op.parameters]) {
        if (!Array.isArray(list)) continue;
        for (const p of list) {
          if (!isObj(p) || typeof p.name !== 'string') continue;
          if (swagger && p.in === 'body') {
            bodySchema = isObj(p.schema) ? p.schema : {};
            bodyRequired = p.required === true;
            continue;
          }
          if (p.in !== 'path' && p.in !== 'query' && p.in !== 'header') continue;
          const schema = swagger ? swaggerParamSchema(p) : isObj(p.schema) ? p.schema : {};
          const name = p.in === 'header' ? p.name.toLowerCase() : p.name;
          specs.set(`${p.in}:${name}`, { name, in: p.in, required: p.in === 'path' || p.required === true, schema });
        }
      }
      if (!swagger && isObj(op.requestBody)) {
        const content = isObj(op.requestBody.content) ? op.requestBody.content : {};
        const key = Object.keys(content).find((t) => isJsonMediaType(parseMediaType(t).type));
        if (key !== undefined && isObj(content[key])) {
          bodySchema = isObj((content[key] as Obj).schema) ? ((content[key] as Obj).schema as Obj) : {};
          bodyRequired = op.requestBody.required === true;
        }
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
      const paramsSchema = { type: 'object', properties: { path: group('path'), query: group('query'), headers: group('header') } };
      const validateParams: ValidateFunction = ajv.compile(paramsSchema);
      const validateBody: ValidateFunction | undefined = bodySchema ? bodyAjv.compile({ type: 'object', properties: { body: bodySchema } }) : undefined;
      const responseChecks = new Map<string, ValidateFunction>();
      if (isObj(op.responses)) {
        for (const [code, response] of Object.entries(op.responses)) {
          if (!isObj(response)) continue;
          let schema: unknown;
          if (swagger) schema = response.schema;
          else if (isObj(response.content)) {
            const key = Object.keys(response.content).find((t) => isJsonMediaType(parseMediaType(t).type));
            if (key !== undefined && isObj(response.content[key])) schema = (response.content[key] as Obj).schema;
          }
          if (isObj(schema)) responseChecks.set(code.toUpperCase(), bodyAjv.compile({ type: 'object', properties: { body: schema } }));
        }
      }
      const responseCheck = (status: number) => responseChecks.get(String(status)) ?? responseChecks.get(`${String(status)[0]}XX`) ?? responseChecks.get('DEFAULT');
      const querySpecs = [...specs.values()].filter((s) => s.in === 'query');
      const headerSpecs = [...specs.values()].filter((s) => s.in === 'header');
      const label = `${method.toUpperCase()} ${template}`;
      route.ops.set(method.toUpperCase(), {
        label,
        jsonBody: validateBody !== undefined,
        bodyRequired,
        check(parts) {
          const query: Obj = {};
          for (const s of querySpecs) {
            const all = parts.query.getAll(s.name);
            if (all.length) query[s.name] = all.length === 1 ? all[0] : all;
          }
          const headers: Obj = {};
          for (const s of headerSpecs) {
            const v = parts.headers.get(s.name);
            if (v !== null) headers[s.name] = v;
          }
          const data = { path: { ...parts.path }, query, headers };
          const problems = validateParams(data) ? [] : problemsOf(validateParams.errors);
          if (validateBody && parts.body !== undefined && problems.length < MAX_LISTED_ERRORS) {
            if (!validateBody({ body: parts.body })) problems.push(...problemsOf(validateBody.errors).slice(0, MAX_LISTED_ERRORS - problems.length));
          }
          return problems;
        },
        hasResponseSchema: (status) => responseCheck(status) !== undefined,
        checkResponse(status, body) {
          const validate = responseCheck(status);
          if (!validate) return undefined;
          return validate({ body }) ? [] : problemsOf(validate.errors);
        },
      });
    }
    routes.push(route);
  }
  routes.sort((a, b) => a.templated - b.templated);

  return {
    operations: count,
    match(method, subPath) {
      const path = subPath === '' ? '/' : subPath;
      let allowed: Route | undefined;
      for (const r of routes) {
        const m = r.regex.exec(path);
        if (!m) continue;
        const op = r.ops.get(method) ?? (method === 'HEAD' ? r.ops.get('GET') : undefined);
        if (!op) {
          allowed ??= r;
          continue;
        }
        const params: Record<string, string> = {};
        r.names.forEach((n, i) => {
          const raw = m[i + 1]!;
          try {
            params[n] = decodeURIComponent(raw);
          } catch {
            params[n] = raw;
          }
        });
        return { operation: op, params };
      }
      if (allowed) return { status: 405, allow: [...allowed.ops.keys()].join(', ') };
      return { status: 404 };
    },
  };
}
