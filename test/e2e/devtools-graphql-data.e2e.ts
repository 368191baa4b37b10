/**
 * The Data tab over a schema-first GraphQL API's state, in real Chromium on a node host with an
 * SDL file in the mocks folder: each entity type is listed (`Post (10) · GraphQL schema`); a
 * cell edited from the keyboard changes what a GraphQL query answers; a value the SDL's field
 * type cannot hold is reported with its 400 and nothing changes; an item added in the dialog is
 * what `createPost` would have made (the next id); a session's own state is edited apart,
 * labelled.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { serve, type RunningServer } from '../../src/node/serve.js';
import { memoryFs } from '../../src/vfs/memory.js';
import { launchChromium, type Browser } from './helpers/chromium.js';

const SDL = `
  type User { id: ID!  name: String!  email: String! }
  type Post { id: ID!  title: String!  views: Int!  author: User! }
  type Query { posts: [Post!]!  post(id: ID!): Post  users: [User!]! }
  type Mutation { createPost(title: String!, views: Int): Post! }
`;

let browser: Browser;
let server: RunningServer;
beforeAll(async () => {
  server = await serve({ port: 0, host: '127.0.0.1', logLevel: 'silent', mock: { endpointPrefix: '/api', fs: memoryFs({ 'schema.graphql': SDL }), graphql: { schema: 'schema.graphql' } } });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function gql(query: string, session?: string): Promise<any> {
  const r = await fetch(`${server.url}/api/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...(session ? { 'X-Mockyard-Session': session } : {}) }, body: JSON.stringify({ query }) });
  const body = (await r.json()) as { data: any; errors?: unknown };
  expect(body.errors).toBeUndefined();
  return body.data;
}

it('lists the schema\'s types; a cell edited by keyboard is what a GraphQL query answers; a wrong type is refused', async () => {
  const page = await browser.context.newPage();
  await page.goto(`${server.url}/_mockyard/#data`);
  await page.locator('[data-tab=data][aria-selected=true]').waitFor();
  const select = page.getByTestId('data-collection');
  await expect.poll(() => select.locator('option').allTextContents()).toEqual(expect.arrayContaining(['User (10) · GraphQL schema', 'Post (10) · GraphQL schema']));
  await select.selectOption('graphql:Post');
  await expect.poll(() => page.getByTestId('data-scope-label').textContent()).toMatch(/^GraphQL schema, shared state/);
  await expect.poll(() => page.getByTestId('data-range').textContent()).toBe('1–10 of 10');
  const before = (await gql('{ post(id: "3") { title views } }')).post;
  const cell = (id: string, field: string) => page.locator(`[data-testid=data-table] tr[data-id="${id}"] [data-field="${field}"]`);
  expect(await cell('3', 'title').textContent()).toBe(before.title);

  // Keyboard: focus the cell, Enter, type, Enter; focus comes back to the cell.
  await cell('3', 'title').focus();
  await page.keyboard.press('Enter');
  await page.getByLabel('title of 3').fill('Edited in the Data tab');
  await page.keyboard.press('Enter');
  await expect.poll(async () => (await gql('{ post(id: "3") { title views } }')).post).toEqual({ title: 'Edited in the Data tab', views: before.views });
  await expect.poll(() => cell('3', 'title').textContent()).toBe('Edited in the Data tab');
  await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-field'))).toBe('title');

  // views is an Int!: "many" is refused (400 naming the field), nothing written.
  await cell('3', 'views').focus();
  await page.keyboard.press('Enter');
  await page.getByLabel('views of 3').fill('many');
  await page.keyboard.press('Enter');
  await expect.poll(() => page.getByTestId('data-note').textContent()).toMatch(/^400.*Post\.views: Int cannot represent/);
  expect((await gql('{ post(id: "3") { views } }')).post.views).toBe(before.views);

  // Add item: the dialog, Ctrl+Enter; the next id, as createPost gives.
  await page.getByRole('button', { name: 'Add item' }).click();
  await page.getByRole('dialog').getByLabel('JSON').fill('{ "title": "Added", "views": 5 }');
  await page.keyboard.press('Control+Enter');
  await expect.poll(() => page.getByTestId('data-range').textContent()).toBe('1–11 of 11');
  expect((await gql('{ post(id: "11") { title views } }')).post).toEqual({ title: 'Added', views: 5 });
  await page.close();
});

it('edits a session\'s own state, labelled; only that session\'s queries see it', async () => {
  const page = await browser.context.newPage();
  await page.goto(`${server.url}/_mockyard/#data`);
  await page.locator('[data-tab=data][aria-selected=true]').waitFor();
  await page.getByLabel('New session id').fill('pw-gql');
  await page.keyboard.press('Enter');
  await expect.poll(() => page.getByTestId('data-collection').locator('option').allTextContents()).toContain('User (10) · GraphQL schema');
  await page.getByTestId('data-collection').selectOption('graphql:User');
  await expect.poll(() => page.getByTestId('data-scope-label').textContent()).toMatch(/^GraphQL schema, session pw-gql’s own state/);
  await expect.poll(() => page.locator('[data-testid=data-table] tbody tr').count()).toBe(10);
  const shared = (await gql('{ users { id name } }')).users[4].name;
  await page.locator('[data-testid=data-table] tr[data-id="5"] [data-field="name"]').focus();
  await page.keyboard.press('Enter');
  await page.getByLabel('name of 5').fill('Only in pw-gql');
  await page.keyboard.press('Enter');
  await expect.poll(async () => (await gql('{ users { id name } }', 'pw-gql')).users[4].name).toBe('Only in pw-gql');
  expect((await gql('{ users { id name } }')).users[4].name).toBe(shared);
  await page.close();
});
