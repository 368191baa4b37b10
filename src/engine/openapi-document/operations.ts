/**
 * The operations of a document in one shape, whatever wrote it: OpenAPI 3.0 / 3.1 as they are,
 * Swagger 2.0 converted (a `body` parameter → the request body, `formData` → a form body,
 * `produces`/`consumes` → media types, `schema`/`examples` of a response → its content,
 * `securityDefinitions` → security schemes, `basePath` → the server path). Shallow: schemas stay
 * as written (with their `$ref`s), so a big document costs one walk over its paths.
 */
import type { Deref } from './refs.js';
import { isObj } from '../../core/json-object.js';

type Obj = Record<string, unknown>;

export const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  schema: unknown;
}

export interface MediaContent {
  /** `application/json`, `application/xml`… as documented. */
  type: string;
  schema: unknown;
  /** `example` of the media type (or Swagger 2's `examples[type]`). */
  example?: { value: unknown };
  /** Named `examples` (values). */
  examples: Record<string, unknown>;
}

export interface ResponseSpec {
  /** `200`, `2XX`, `default`. */
  code: string;
  description: string;
  contents: MediaContent[];
  /** Documented response header names. */
  headers: string[];
}

export interface SecurityScheme {
  type: string;
  /** apiKey: `header` | `query` | `cookie`. */
  in?: string;
  /** apiKey: the parameter name. */
  name?: string;
  /** http: `basic` | `bearer` | … */
  scheme?: string;
}

export interface Operation {
  method: string;
  /** `/pets/{petId}` */
  template: string;
  /** `GET /pets/{petId}` */
  label: string;
  op: Obj;
  parameters: Parameter[];
  body?: { contents: MediaContent[]; required: boolean };
  responses: ResponseSpec[];
  /** Alternatives (any one satisfies), each a list of schemes all required; `[]` = none. */
  security: SecurityScheme[][];
}

export interface DocumentModel {
  version: 'swagger 2.0' | string;
  title: string;
  /** The first server URL's path (`/v2`) or Swagger's basePath; `''` when none. */
  basePath: string;
  operations: Operation[];
}

function contentsOf(content: unknown, deref: Deref): MediaContent[] {
  if (!isObj(content)) return [];
  return Object.entries(content).map(([type, m0]) => {
    const m = deref(m0);
    const media = isObj(m) ? m : {};
    const examples: Record<string, unknown> = {};
    if (isObj(media.examples)) {
      for (const [name, e0] of Object.entries(media.examples)) {
        const e = deref(e0);
        if (isObj(e) && 'value' in e) examples[name] = e.value;
      }
    }
    return { type, schema: media.schema, ...(media.example !== undefined ? { example: { value: media.example } } : {}), examples };
  });
}

function serverPath(doc: Obj): string {
  let path = '';
  if (doc.swagger === '2.0') path = typeof doc.basePath === 'string' ? doc.basePath : '';
  else if (Array.isArray(doc.servers) && isObj(doc.servers[0]) && typeof doc.servers[0].url === 'string') {
    // Server variables take their defaults (`{version}` → `v1`).
    const server = doc.servers[0];
    const vars = isObj(server.variables) ? server.variables : {};
    const url = (server.url as string).replace(/\{([^}]+)\}/g, (_m, n: string) => {
      const v = vars[n];
      return isObj(v) && typeof v.default === 'string' ? v.default : '';
    });
    try {
      path = new URL(url, 'http://localhost').pathname;
    } catch {
      path = '';
    }
  }
  path = path.replace(/\/+$/, '');
  return path === '/' ? '' : path;
}

/** The parameters of an operation, its path item's then its own (dereferenced; those with a name and a place). */
export function* parametersOf(item: Obj, op: Obj, deref: Deref): Generator<Obj & { name: string; in: string }> {
  for (const list of [item.parameters, op.parameters]) {
    if (!Array.isArray(list)) continue;
    for (const p0 of list) {
      const p = deref(p0);
      if (isObj(p) && typeof p.name === 'string' && typeof p.in === 'string') yield p as Obj & { name: string; in: string };
    }
  }
}

/** A Swagger 2 parameter's schema: the parameter object without its own fields (the type stands on it). */
export function swaggerParamSchema(p: Obj): Obj {
  const { name: _n, in: _i, required: _r, description: _d, collectionFormat: _c, allowEmptyValue: _a, ...schema } = p;
  return schema;
}

export function readDocument(doc: Obj, deref: Deref): DocumentModel {
  const swagger = doc.swagger === '2.0';
  const info = isObj(doc.info) ? doc.info : {};
  const schemes: Obj = swagger ? (isObj(doc.securityDefinitions) ? doc.securityDefinitions : {}) : isObj(doc.components) && isObj((doc.components as Obj).securitySchemes) ? ((doc.components as Obj).securitySchemes as Obj) : {};
  const globalSecurity = Array.isArray(doc.security) ? doc.security : [];
  const docProduces = Array.isArray(doc.produces) ? (doc.produces as string[]) : ['application/json'];
  const docConsumes = Array.isArray(doc.consumes) ? (doc.consumes as string[]) : ['application/json'];
  const operations: Operation[] = [];
  const paths = isObj(doc.paths) ? doc.paths : {};
  for (const [template, item0] of Object.entries(paths)) {
    const item = deref(item0);
    if (!isObj(item)) continue;
    for (const method of METHODS) {
      const op = item[method];
      if (!isObj(op)) continue;
      const params = new Map<string, Parameter>();
      let body: Operation['body'];
      const form: Obj = {};
      const formRequired: string[] = [];
      for (const p of parametersOf(item, op, deref)) {
        if (swagger && p.in === 'body') {
          const consumes = Array.isArray(op.consumes) ? (op.consumes as string[]) : docConsumes;
          body = { contents: consumes.map((type) => ({ type, schema: p.schema, examples: {} })), required: p.required === true };
          continue;
        }
        if (swagger && p.in === 'formData') {
          form[p.name] = swaggerParamSchema(p);
          if (p.required === true) formRequired.push(p.name);
          continue;
        }
        if (p.in !== 'path' && p.in !== 'query' && p.in !== 'header' && p.in !== 'cookie') continue;
        params.set(`${p.in}:${p.name}`, { name: p.name, in: p.in, required: p.in === 'path' || p.required === true, schema: swagger ? swaggerParamSchema(p) : p.schema });
      }
      if (swagger && Object.keys(form).length) {
        const consumes = Array.isArray(op.consumes) ? (op.consumes as string[]) : ['application/x-www-form-urlencoded'];
        body = { contents: consumes.map((type) => ({ type, schema: { type: 'object', properties: form, required: formRequired }, examples: {} })), required: formRequired.length > 0 };
      }
      if (!swagger && op.requestBody !== undefined) {
        const rb = deref(op.requestBody);
        if (isObj(rb)) body = { contents: contentsOf(rb.content, deref), required: rb.required === true };
      }
      const responses: ResponseSpec[] = [];
      if (isObj(op.responses)) {
        for (const [code, r0] of Object.entries(op.responses)) {
          const r = deref(r0);
          if (!isObj(r)) continue;
          let contents: MediaContent[];
          if (swagger) {
            const produces = Array.isArray(op.produces) ? (op.produces as string[]) : docProduces;
            const examples = isObj(r.examples) ? r.examples : {};
            contents = r.schema === undefined && Object.keys(examples).length === 0 ? [] : produces.map((type) => ({ type, schema: r.schema, ...(type in examples ? { example: { value: examples[type] } } : {}), examples: {} }));
          } else contents = contentsOf(r.content, deref);
          responses.push({ code: code.toUpperCase(), description: typeof r.description === 'string' ? r.description : '', contents, headers: isObj(r.headers) ? Object.keys(r.headers) : [] });
        }
      }
      const requirements = Array.isArray(op.security) ? op.security : globalSecurity;
      const security: SecurityScheme[][] = [];
      for (const req of requirements) {
        if (!isObj(req)) continue;
        const all: SecurityScheme[] = [];
        for (const name of Object.keys(req)) {
          const s = deref(schemes[name]);
          if (isObj(s) && typeof s.type === 'string') all.push({ type: s.type, in: typeof s.in === 'string' ? s.in : undefined, name: typeof s.name === 'string' ? s.name : undefined, scheme: typeof s.scheme === 'string' ? s.scheme.toLowerCase() : undefined });
        }
        security.push(all);
      }
      operations.push({ method: method.toUpperCase(), template, label: `${method.toUpperCase()} ${template}`, op, parameters: [...params.values()], ...(body ? { body } : {}), responses, security });
    }
  }
  return {
    version: swagger ? 'swagger 2.0' : `openapi ${String(doc.openapi)}`,
    title: typeof info.title === 'string' ? info.title : '',
    basePath: serverPath(doc),
    operations,
  };
}
