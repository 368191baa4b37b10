/**
 * OpenAPI → mock files (the planning half of `mockyard import`; host-neutral, no I/O). Input: a
 * dereferenced document (Swagger 2.0, OpenAPI 3.0 or 3.1, as @readme/openapi-parser gives it).
 * Output: one planned file per GET operation, and what was skipped and why.
 *
 * The body of each file, in order of preference:
 *   1. the response's own example: OAS 3 `content[json].example`, else the first of
 *      `content[json].examples` (its `value`); Swagger 2 `examples['application/json']`;
 *   2. the schema's `example` / first of `examples`;
 *   3. a sample generated from the schema by openapi-sampler (deterministic: the same document
 *      always gives the same files, so no seed is needed; read-only/write-only respected).
 * The response: `200`, else the first other 2xx, with a JSON media type (`application/json` or
 * `+json`); an operation without one is skipped (listed in the summary).
 *
 * Path templates (`/pets/{petId}`) become a COLLECTION-style folder of items, not a handler
 * module: the parameter takes the value of its example (`example`, `examples`, `default`,
 * `enum[0]`; else `1`) and the file is `pets/<value>.json`. Why: file mode serves it with no
 * code (`GET /api/pets/7` → `pets/7.json`), PUT/PATCH/DELETE work on it as on any file, and adding
 * items is copying a file, whereas a handler module is code to maintain and would answer one
 * fixed body for every id anyway. When the item is an object with an `id` (or the parameter's
 * own name) property, that property is set to the same value, so the file agrees with its path.
 */
import { sample } from 'openapi-sampler';
import { isJsonMediaType, parseMediaType } from '../../core/media-type.js';
import { requestPathToVfs } from '../../vfs/path.js';
import { isObj } from '../../core/json-object.js';
import { METHODS, parametersOf } from '../openapi-document/operations.js';

type Obj = Record<string, unknown>;

export interface PlannedFile {
  /** `GET /pets/{petId}` */
  operation: string;
  /** Path below fsDir: `pets/7.json`. */
  rel: string;
  /** The body (written pretty-printed). */
  value: unknown;
  /** Where the body came from. */
  source: 'example' | 'schema example' | 'generated';
  /** For templated paths: the parameter values used. */
  params?: Record<string, string>;
}

export interface SkippedOperation {
  operation: string;
  reason: string;
}

export interface ImportPlan {
  /** `swagger 2.0`, `openapi 3.0.3`, `openapi 3.1.0`. */
  version: string;
  title: string;
  /** The servers' (or Swagger basePath's) path, a hint for `--prefix` (`/v1`), or `''`. */
  basePath: string;
  files: PlannedFile[];
  skipped: SkippedOperation[];
}

function firstExample(o: Obj): { found: boolean; value?: unknown } {
  if ('example' in o && o.example !== undefined) return { found: true, value: o.example };
  if (Array.isArray(o.examples) && o.examples.length > 0) return { found: true, value: o.examples[0] };
  return { found: false };
}

function pickResponse(responses: unknown): [string, Obj] | undefined {
  if (!isObj(responses)) return undefined;
  const codes = Object.keys(responses).filter((c) => /^2(\d\d|XX)$/i.test(c)).sort((a, b) => (a === '200' ? -1 : b === '200' ? 1 : a < b ? -1 : 1));
  const code = codes[0];
  return code !== undefined && isObj(responses[code]) ? [code, responses[code] as Obj] : undefined;
}

/** The JSON body of a response: [value, source] or a reason it has none. */
function responseBody(response: Obj, swagger: boolean, produces: string[]): { value: unknown; source: PlannedFile['source'] } | string {
  let schema: unknown;
  if (swagger) {
    if (!produces.some((t) => isJsonMediaType(parseMediaType(t).type))) return 'produces no JSON';
    const examples = isObj(response.examples) ? response.examples : {};
    const key = Object.keys(examples).find((t) => isJsonMediaType(parseMediaType(t).type));
    if (key !== undefined) return { value: examples[key], source: 'example' };
    schema = response.schema;
  } else {
    const content = isObj(response.content) ? response.content : {};
    const key = Object.keys(content).find((t) => isJsonMediaType(parseMediaType(t).type));
    if (key === undefined) return Object.keys(content).length ? `no JSON media type (${Object.keys(content).join(', ')})` : 'no response body';
    const media = isObj(content[key]) ? (content[key] as Obj) : {};
    if (media.example !== undefined) return { value: media.example, source: 'example' };
    if (isObj(media.examples)) {
      const first = Object.values(media.examples).find((e) => isObj(e) && 'value' in e) as Obj | undefined;
      if (first) return { value: first.value, source: 'example' };
    }
    schema = media.schema;
  }
  if (!isObj(schema)) return 'no response body';
  const own = firstExample(schema);
  if (own.found) return { value: own.value, source: 'schema example' };
  return { value: sample(schema as never, { skipWriteOnly: true, quiet: true }), source: 'generated' };
}

function paramValue(param: Obj): string {
  const schema = isObj(param.schema) ? param.schema : param; // Swagger 2 keeps type on the parameter
  for (const o of [param, schema]) {
    const ex = firstExample(o);
    if (ex.found && (typeof ex.value === 'string' || typeof ex.value === 'number')) return String(ex.value);
  }
  if (typeof schema.default === 'string' || typeof schema.default === 'number') return String(schema.default);
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return String(schema.enum[0]);
  return '1';
}

function pathParams(pathItem: Obj, op: Obj): Map<string, Obj> {
  const out = new Map<string, Obj>();
  for (const p of parametersOf(pathItem, op, (v) => v)) if (p.in === 'path') out.set(p.name, p); // the document comes dereferenced
  return out;
}

export function planImport(doc: Obj): ImportPlan {
  const swagger = doc.swagger === '2.0';
  const info = isObj(doc.info) ? doc.info : {};
  const version = swagger ? 'swagger 2.0' : `openapi ${String(doc.openapi)}`;
  let basePath = '';
  if (swagger && typeof doc.basePath === 'string') basePath = doc.basePath;
  else if (Array.isArray(doc.servers) && isObj(doc.servers[0]) && typeof doc.servers[0].url === 'string') {
    try {
      basePath = new URL(doc.servers[0].url, 'http://x').pathname;
    } catch {
      basePath = '';
    }
  }
  basePath = basePath.replace(/\/+$/, '');
  const plan: ImportPlan = { version, title: typeof info.title === 'string' ? info.title : '', basePath, files: [], skipped: [] };
  const paths = isObj(doc.paths) ? doc.paths : {};
  const docProduces = Array.isArray(doc.produces) ? (doc.produces as string[]) : ['application/json'];
  const taken = new Set<string>();
  for (const [path, item] of Object.entries(paths)) {
    if (!isObj(item)) continue;
    for (const method of METHODS) {
      const op = item[method];
      if (!isObj(op)) continue;
      const operation = `${method.toUpperCase()} ${path}`;
      if (method !== 'get') {
        plan.skipped.push({ operation, reason: 'only GET operations become files (writes are answered by the server: see below)' });
        continue;
      }
      const picked = pickResponse(op.responses);
      if (!picked) {
        plan.skipped.push({ operation, reason: 'no 2xx response' });
        continue;
      }
      const body = responseBody(picked[1], swagger, Array.isArray(op.produces) ? (op.produces as string[]) : docProduces);
      if (typeof body === 'string') {
        plan.skipped.push({ operation, reason: body });
        continue;
      }
      const params = pathParams(item, op);
      const used: Record<string, string> = {};
      const concrete = path.replace(/\{([^}]+)\}/g, (_m, name: string) => (used[name] = params.has(name) ? paramValue(params.get(name)!) : '1'));
      let rel: string;
      try {
        const safe = requestPathToVfs(concrete.split('/').map((s) => encodeURIComponent(s)).join('/'));
        rel = safe.path === '' ? 'index.json' : `${safe.path}${safe.trailingSlash ? '/index' : ''}.json`;
      } catch {
        plan.skipped.push({ operation, reason: 'the path is not a safe file path' });
        continue;
      }
      if (taken.has(rel)) {
        plan.skipped.push({ operation, reason: `${rel} is already planned for another path` });
        continue;
      }
      taken.add(rel);
      let value = body.value;
      const names = Object.keys(used);
      if (names.length > 0 && isObj(value)) {
        const last = names[names.length - 1]!;
        const key = 'id' in value ? 'id' : last in value ? last : undefined;
        if (key !== undefined) {
          const v = used[last]!;
          value = { ...value, [key]: typeof value[key] === 'number' && /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : v };
        }
      }
      plan.files.push({ operation, rel, value, source: body.source, ...(names.length ? { params: used } : {}) });
    }
  }
  return plan;
}
