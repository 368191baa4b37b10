/**
 * An OpenAPI 3.1 document of a data model (data-model.ts), describing what mockyard serves for it
 * with the json-server preset (docs/json-server.md), as measured on the built CLI:
 *
 *   GET    /todos        200 the items (json-server's query parameters; X-Total-Count, Link);
 *                       with `_per_page` 1.x's page object instead (`first … data`)
 *   POST   /todos        201 the item (Location); 400 malformed body, 409 id taken
 *   GET    /todos/{id}   200 the item; 404
 *   PUT    /todos/{id}   200 the item as replaced; PATCH merged; DELETE 200 the removed item
 *                       (X-Deleted-Count); 404
 *   GET|PUT|PATCH /profile   a singular object
 *
 * Errors are the project's one error body (src/core/errors.ts). Schemas are inferred from the
 * data (value-shape.ts) with the items as `examples`; relation fields carry
 * `x-mockyard-relation` (the related collection). GraphQL and WebSocket routes a server has are
 * named in `x-mockyard-graphql` / `x-mockyard-websockets` (given by the caller).
 */
import { errorCode } from '../core/errors.js';
import type { DataModel } from './data-model.js';
import type { Schema } from './value-shape.js';

export interface DataOpenApiOptions {
  title: string;
  /** The prefix the data is served under (`/` for a db.json, `/api` for a folder). */
  prefix: string;
  version?: string;
  /** The GraphQL endpoint's path, when the server has one. */
  graphql?: string;
  /** WebSocket route patterns, when the server has them. */
  websockets?: string[];
}

const ERROR = '#/components/schemas/Error';
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: unknown, extra: Schema = {}) => ({ content: { 'application/json': { schema, ...extra } } });

/** An error answer: the error body, with an example of it. */
const errorResponse = (status: number, description: string, message = description) => ({
  description,
  ...json({ $ref: ERROR }, { example: { status, error: errorCode(status), message, path: '/', timestamp: '2026-01-01T00:00:00.000Z' } }),
});

const INT = { type: 'integer' };
const STR = { type: 'string' };

/** json-server's query parameters of a list (docs/json-server.md). */
function listParameters(model: DataModel, c: DataModel['collections'][number]): Schema[] {
  const p = (name: string, schema: Schema, description: string) => ({ name, in: 'query', required: false, description, schema });
  const params = [
    p('_page', INT, 'Page number (with _limit: the page as an array and a Link header; with _per_page: the 1.x page object).'),
    p('_limit', INT, 'Items per page with _page; else the first N items.'),
    p('_per_page', INT, "Items per page in json-server 1.x's page object ({ first, prev, next, last, pages, items, data })."),
    p('_start', INT, 'Slice start (as Array.slice).'),
    p('_end', INT, 'Slice end (as Array.slice).'),
    p('_sort', STR, 'Fields to sort by, comma-separated (1.x: -field for descending).'),
    p('_order', STR, 'asc or desc per _sort field, comma-separated.'),
    p('q', STR, 'Full-text search in every string value.'),
  ];
  const children = model.collections.filter((o) => [...o.relations.values()].includes(c.name)).map((o) => o.name);
  if (children.length) params.push(p('_embed', STR, `Embeds the children: ${children.join(', ')}.`));
  const parents = [...new Set(c.relations.values())];
  if (parents.length) params.push(p('_expand', STR, `Expands the parents: ${parents.join(', ')}.`));
  const props = (c.schema.properties as Record<string, Schema> | undefined) ?? {};
  for (const [field, schema] of Object.entries(props)) {
    const t = schema.type;
    const scalar = typeof t === 'string' ? ['string', 'integer', 'number', 'boolean'].includes(t) : Array.isArray(t) && t.every((x) => x !== 'array' && x !== 'object');
    if (!scalar || params.some((x) => x.name === field)) continue;
    params.push(p(field, {}, `Items whose ${field} equals the value (also ${field}_gte, _lte, _ne, _like).`));
  }
  return params;
}

/** The item schema with the relation fields marked. */
function itemSchema(c: DataModel['collections'][number]): Schema {
  const props = c.schema.properties as Record<string, Schema> | undefined;
  // x-mockyard-count: `mockyard FILE` serves as many items as the data has (its examples first).
  const count = { 'x-mockyard-count': c.items.length };
  if (!props) return { type: 'object', examples: c.items.slice(0, 3), ...count };
  const properties: Record<string, Schema> = {};
  for (const [k, v] of Object.entries(props)) properties[k] = c.relations.has(k) ? { ...v, 'x-mockyard-relation': c.relations.get(k) } : v;
  return { ...c.schema, properties, examples: c.items.slice(0, 3), ...count };
}

/** The body of a create or a replace: the item, its id optional. */
function newItemSchema(model: DataModel, c: DataModel['collections'][number]): Schema {
  const required = Array.isArray(c.schema.required) ? (c.schema.required as string[]).filter((r) => r !== model.idField) : [];
  const props = c.schema.properties as Record<string, Schema> | undefined;
  return { type: 'object', ...(props ? { properties: props } : {}), ...(required.length ? { required } : {}) };
}

export function dataOpenApi(model: DataModel, options: DataOpenApiOptions): Record<string, unknown> {
  const schemas: Record<string, unknown> = {};
  const paths: Record<string, unknown> = {};
  const idParam = (c: DataModel['collections'][number]) => {
    const idSchema = (c.schema.properties as Record<string, Schema> | undefined)?.[model.idField];
    const type = idSchema?.type === 'integer' || idSchema?.type === 'number' ? idSchema.type : 'string';
    return { name: 'id', in: 'path', required: true, description: `The item's ${model.idField}.`, schema: { type } };
  };
  for (const c of model.collections) {
    const name = c.typeName;
    schemas[name] = itemSchema(c);
    schemas[`New${name}`] = newItemSchema(model, c);
    const tags = [c.name];
    const item = ref(name);
    paths[`/${c.name}`] = {
      get: {
        operationId: `list${name}`,
        tags,
        summary: `The ${c.name}`,
        parameters: listParameters(model, c),
        responses: {
          200: {
            description: `The ${c.name} (an array); with _per_page, json-server 1.x's page object`,
            headers: {
              'X-Total-Count': { description: 'How many items match, before paging.', schema: INT },
              Link: { description: 'first / prev / next / last pages (with _page and _limit).', schema: STR },
            },
            content: {
              'application/json': {
                // An array, or (with _per_page) an object: one schema, so that the list stays a list to tools that read it.
                schema: {
                  type: ['array', 'object'],
                  items: item,
                  properties: { first: INT, prev: { type: ['integer', 'null'] }, next: { type: ['integer', 'null'] }, last: INT, pages: INT, items: INT, data: { type: 'array', items: item } },
                  required: ['first', 'prev', 'next', 'last', 'pages', 'items', 'data'],
                },
                example: c.items,
              },
            },
          },
          400: errorResponse(400, 'A query json-server cannot run (_where that is not JSON, a bad _like pattern)'),
        },
      },
      post: {
        operationId: `create${name}`,
        tags,
        summary: `Adds an item to ${c.name} (an id is assigned when missing)`,
        requestBody: { required: true, ...json(ref(`New${name}`)) },
        responses: {
          201: { description: 'The item as stored', headers: { Location: { description: "The new item's URL.", schema: STR } }, ...json(item) },
          400: errorResponse(400, 'The body is not a JSON object'),
          409: errorResponse(409, 'An item with that id exists'),
        },
      },
    };
    const notFound = errorResponse(404, 'No item with that id', 'Not Found');
    paths[`/${c.name}/{id}`] = {
      parameters: [idParam(c)],
      get: { operationId: `get${name}`, tags, responses: { 200: { description: 'The item', ...json(item) }, 404: notFound } },
      put: { operationId: `replace${name}`, tags, requestBody: { required: true, ...json(ref(`New${name}`)) }, responses: { 200: { description: 'The item as replaced (its id kept)', ...json(item) }, 400: errorResponse(400, 'The body is not a JSON object'), 404: notFound } },
      patch: { operationId: `update${name}`, tags, requestBody: { required: true, ...json({ type: 'object' }) }, responses: { 200: { description: 'The item with the fields merged', ...json(item) }, 400: errorResponse(400, 'The body is not a JSON object'), 404: notFound } },
      delete: { operationId: `delete${name}`, tags, responses: { 200: { description: 'The removed item', headers: { 'X-Deleted-Count': { description: 'Items removed (with their dependents).', schema: INT } }, ...json(item) }, 404: notFound } },
    };
  }
  for (const o of model.objects) {
    const name = o.typeName;
    schemas[name] = { ...o.schema, examples: [o.value] };
    const tags = [o.name];
    paths[`/${o.name}`] = {
      get: { operationId: `get${name}`, tags, responses: { 200: { description: `The ${o.name} object`, ...json(ref(name), { example: o.value }) } } },
      put: { operationId: `replace${name}`, tags, requestBody: { required: true, ...json(ref(name)) }, responses: { 200: { description: 'The object as replaced', ...json(ref(name)) }, 400: errorResponse(400, 'The body is not JSON') } },
      patch: { operationId: `update${name}`, tags, requestBody: { required: true, ...json({ type: 'object' }) }, responses: { 200: { description: 'The object with the fields merged', ...json(ref(name)) }, 400: errorResponse(400, 'The body is not JSON') } },
    };
  }
  schemas.Error = {
    type: 'object',
    description: "mockyard's error body (every 4xx/5xx it makes).",
    properties: { status: INT, error: STR, message: STR, path: STR, timestamp: { type: 'string', format: 'date-time' } },
    required: ['status', 'error', 'message', 'path', 'timestamp'],
  };
  const prefix = options.prefix.replace(/\/+$/, '') || '/';
  return {
    openapi: '3.1.0',
    info: { title: options.title, version: options.version ?? '1.0.0', description: 'Inferred by `mockyard export` from the data (docs/contract.md).' },
    servers: [{ url: prefix }],
    paths,
    components: { schemas },
    ...(options.graphql ? { 'x-mockyard-graphql': { path: options.graphql, description: 'GraphQL over the collections (docs/graphql.md).' } } : {}),
    ...(options.websockets?.length ? { 'x-mockyard-websockets': options.websockets.map((pattern) => ({ pattern })) } : {}),
  };
}
