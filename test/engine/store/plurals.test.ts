/**
 * One singular/plural rule for collection names (src/engine/store/plurals.ts), answered as the
 * peers answer on the same db.json with `boxes`, `categories`, `people` and `news`: json-server
 * 0.17.4's `_expand`/`_embed` (test/fixtures/json-server/plurals-0.17.4.json) and
 * json-graphql-server 3.3.2's type, query, mutation and relation field names
 * (test/fixtures/json-graphql-server/plurals-3.3.2.json), both measured with the peers running on
 * 127.0.0.1 and compared here through a real server; the OpenAPI backend and the schema faker
 * call the same rule (their own tests cover what they generate).
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { createMockApi, type MockApi } from '../../../src/engine/create-mock-api.js';
import { plural, pluralCandidates, singular } from '../../../src/engine/store/plurals.js';
import { memoryFs } from '../../../src/vfs/memory.js';
import { closeServers, startServer } from '../../helpers/server.js';

const fixture = (path: string) => JSON.parse(readFileSync(new URL(`../../fixtures/${path}`, import.meta.url), 'utf8'));
const jsonServer = fixture('json-server/plurals-0.17.4.json') as { db: Record<string, unknown[]>; answers: { path: string; status: number; body: unknown }[] };
const jgs = fixture('json-graphql-server/plurals-3.3.2.json') as { db: Record<string, unknown[]>; queries: string[]; mutations: string[]; types: Record<string, string[]> };

const apis: MockApi[] = [];
afterEach(async () => {
  await closeServers();
  await Promise.all(apis.splice(0).map((a) => a.close()));
});

async function serveDb(db: Record<string, unknown[]>): Promise<string> {
  const files = Object.fromEntries(Object.entries(db).map(([k, v]) => [`${k}.json`, v]));
  const api = createMockApi({ fs: memoryFs(files as never), endpointPrefix: '/api', preset: 'json-server', graphql: true, logLevel: 'silent' });
  apis.push(api);
  return `${(await startServer({ mock: api })).url}/api`;
}

describe('the one singular/plural rule', () => {
  it('names: boxes/box, categories/category, people/person, news/news (both ways, case kept)', () => {
    const pairs = [['boxes', 'box'], ['categories', 'category'], ['people', 'person'], ['news', 'news'], ['posts', 'post'], ['addresses', 'address'], ['statuses', 'status'], ['houses', 'house'], ['children', 'child'], ['blog_posts', 'blog_post']];
    for (const [many, one] of pairs) {
      expect(singular(many!)).toBe(one);
      expect(plural(one!)).toBe(many);
    }
    expect(singular('People')).toBe('Person');
    expect(plural('Person')).toBe('People');
    expect(singular('BlogPeople')).toBe('BlogPerson');
    expect(singular('status')).toBe('status');
    expect(pluralCandidates('box')).toEqual(['boxes', 'boxs', 'box']);
    expect(pluralCandidates('person')).toEqual(['people', 'persons', 'person']);
  });

  it('REST _expand and _embed answer as json-server 0.17.4 does', async () => {
    const base = await serveDb(jsonServer.db);
    for (const { path, status, body } of jsonServer.answers) {
      const r = await fetch(`${base}${path}`);
      expect({ path, status: r.status, body: await r.json() }).toEqual({ path, status, body });
    }
  });

  it('GraphQL names are json-graphql-server 3.3.2\u2019s (its fields, plus mockyard\u2019s own ones)', async () => {
    const base = await serveDb(jgs.db);
    const ask = async (query: string) => ((await (await fetch(`${base}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) })).json()) as { data: any }).data;
    const schema = await ask('{ __schema { queryType { fields { name } } mutationType { fields { name } } } }');
    const names = (fields: { name: string }[]) => fields.map((f) => f.name);
    expect(names(schema.__schema.queryType.fields)).toEqual(expect.arrayContaining(jgs.queries));
    expect(names(schema.__schema.mutationType.fields)).toEqual(expect.arrayContaining(jgs.mutations));
    for (const [type, fields] of Object.entries(jgs.types)) {
      const t = await ask(`{ __type(name: "${type}") { fields { name } } }`);
      expect({ type, fields: names(t.__type?.fields ?? []) }).toEqual({ type, fields: expect.arrayContaining(fields) });
    }
    // The relation fields resolve, to one and to many.
    const item = await ask('{ Item(id: 1) { Box { name } Category { name } Person { name } News { title } } }');
    expect(item.Item).toEqual({ Box: { name: 'box one' }, Category: { name: 'category one' }, Person: { name: 'person one' }, News: { title: 'news one' } });
    const news = await ask('{ News(id: 1) { Items { id } } allNews { id } }');
    expect(news).toEqual({ News: { Items: [{ id: '1' }] }, allNews: [{ id: '1' }] });
  });
});
