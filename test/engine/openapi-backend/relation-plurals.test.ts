/**
 * The OpenAPI backend names relations with the one singular/plural rule (store/plurals.ts): a
 * `boxId`, `categoryId` or `personId` field of a generated item points at an item that exists in
 * `boxes`, `categories` or `people` (before, `boxes` and `people` were not found from their
 * singular: `boxe`, `people`, and those fields got free numbers). Through a real server.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createMockApi, type MockApi } from '../../../src/engine/create-mock-api.js';
import { closeServers, startServer } from '../../helpers/server.js';

const apis: MockApi[] = [];
afterEach(async () => {
  await closeServers();
  await Promise.all(apis.splice(0).map((a) => a.close()));
});

const list = (ref: string) => ({ get: { responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'array', items: { $ref: `#/components/schemas/${ref}` } } } } } } } });
const one = (param: string, ref: string) => ({ get: { parameters: [{ name: param, in: 'path', required: true, schema: { type: 'integer' } }], responses: { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: `#/components/schemas/${ref}` } } } } } } });
const parent = (count: number) => ({ type: 'object', 'x-mockyard-count': count, properties: { id: { type: 'integer' }, name: { type: 'string' } } });

describe('OpenAPI backend relations and plurals', () => {
  it('boxId → boxes, categoryId → categories, personId → people: ids that exist', async () => {
    const document = {
      openapi: '3.1.0',
      info: { title: 'Store', version: '1' },
      paths: {
        '/boxes': list('Box'),
        '/boxes/{boxId}': one('boxId', 'Box'),
        '/categories': list('Category'),
        '/categories/{categoryId}': one('categoryId', 'Category'),
        '/people': list('Person'),
        '/people/{personId}': one('personId', 'Person'),
        '/items': list('Item'),
        '/items/{itemId}': one('itemId', 'Item'),
      },
      components: {
        schemas: {
          Box: parent(2),
          Category: parent(3),
          Person: parent(2),
          Item: { type: 'object', 'x-mockyard-count': 30, required: ['boxId', 'categoryId', 'personId'], properties: { id: { type: 'integer' }, boxId: { type: 'integer' }, categoryId: { type: 'integer' }, personId: { type: 'integer' } } },
        },
      },
    };
    const api = createMockApi({ endpointPrefix: '/api', fsDir: null, logLevel: 'silent', openapi: { document } });
    apis.push(api);
    const base = `${(await startServer({ mock: api })).url}/api`;
    const ids = async (path: string) => ((await (await fetch(`${base}${path}`)).json()) as { id: number }[]).map((x) => x.id);
    const boxes = await ids('/boxes');
    const categories = await ids('/categories');
    const people = await ids('/people');
    expect([boxes.length, categories.length, people.length]).toEqual([2, 3, 2]);
    const items = (await (await fetch(`${base}/items`)).json()) as { boxId: number; categoryId: number; personId: number }[];
    expect(items).toHaveLength(30);
    for (const item of items) {
      expect(boxes).toContain(item.boxId);
      expect(categories).toContain(item.categoryId);
      expect(people).toContain(item.personId);
    }
  });
});
