/**
 * The story rules of `mockyard/storybook` (src/storybook/story-session.ts) on the page's host
 * (pageHost: the engines, journal and collector startWorker builds), with the worker's part
 * played by `send`: what the page worker does with a request, which joins the session the
 * runner chose (the Chromium suite, test/e2e/storybook.e2e.ts, runs the same in a real Storybook).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { memoryFs } from '../../src/vfs/memory.js';
import { pageHost } from '../../src/sw/engines.js';
import type { Host } from '../../src/host/create-host.js';
import type { MockApi } from '../../src/engine/create-mock-api.js';
import { StoryRunner, checkParameters, storyOverrides } from '../../src/storybook/story-session.js';
import { seedFromFiles } from '../../src/storybook/preview.js';

let host: Host;
let runner: StoryRunner;
const controls = { session: undefined as string | undefined, used: [] as unknown[], use(...h: unknown[]) { this.used.push(...h); }, resetHandlers() { this.used = []; } };

beforeEach(async () => {
  host = await pageHost({
    mock: {
      endpointPrefix: '/api',
      preset: 'json-server',
      fs: memoryFs({ 'mocks/items.json': [{ id: 1, title: 'seed' }], 'scenarios/empty/items.json': [] }),
      fsDir: 'mocks',
      scenarios: { empty: { fsDir: 'scenarios/empty' } },
    },
    tracker: true,
  });
  controls.session = undefined;
  controls.used = [];
  runner = new StoryRunner({ api: host.mock as MockApi, controls: controls as never, journal: host.journal });
});
afterEach(async () => {
  await host.close();
});

/** A request from the story's page, as the page worker hands it over: in the current story's session. */
function send(path: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  if (controls.session !== undefined) headers.set('x-mockyard-session', controls.session);
  return host.fetch(new Request(`http://localhost${path}`, { ...init, headers }));
}
const titles = async () => ((await (await send('/api/items')).json()) as Array<{ title: string }>).map((i) => i.title);
const post = (title: string) => send('/api/items', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ title }) });

describe('a private session per story (the default)', () => {
  it("stories never see each other's writes, and going back to a story starts over from the seed", async () => {
    await runner.begin({ id: 'items--add', parameters: undefined });
    expect((await post('added')).status).toBe(201);
    expect(await titles()).toEqual(['seed', 'added']);
    await runner.begin({ id: 'items--list', parameters: {} });
    expect(await titles()).toEqual(['seed']);
    const again = await runner.begin({ id: 'items--add', parameters: {} });
    expect(await titles()).toEqual(['seed']);
    // The mocks themselves were never written, and the earlier stories' sessions are gone.
    expect(((await (await host.fetch(new Request('http://localhost/api/items'))).json()) as unknown[]).length).toBe(1);
    expect((host.mock as MockApi).sessions.list().map((s) => s.id)).toEqual([again.session]);
  });

  it('scenario, faults, delay and data apply to the story only', async () => {
    await runner.begin({ id: 'items--empty', parameters: { scenario: 'empty' } });
    expect(await titles()).toEqual([]);
    await runner.begin({ id: 'items--error', parameters: { faults: [{ method: 'GET', path: '/items', status: 500 }] } });
    const failed = await send('/api/items');
    expect([failed.status, ((await failed.json()) as { status: number }).status]).toEqual([500, 500]);
    expect((await post('still writes')).status).toBe(201); // GET only
    await runner.begin({ id: 'items--own', parameters: { data: { 'items.json': [{ id: 7, title: 'own' }] } } });
    expect(await titles()).toEqual(['own']);
    await runner.begin({ id: 'items--list', parameters: {} });
    expect(await titles()).toEqual(['seed']);
    expect(storyOverrides({ delay: 300 })).toEqual([{ method: '*', path: '/**', delay: 300 }]);
    const slow = await runner.begin({ id: 'items--slow', parameters: { delay: 1 } });
    await titles();
    expect((await slow.requests()).map((e) => e.fault?.type)).toEqual(['delay']);
  });

  it("requests() gives the story's own requests, oldest first, with their bodies", async () => {
    await runner.begin({ id: 'items--other', parameters: {} });
    await post('not mine');
    const story = await runner.begin({ id: 'items--add', parameters: {} });
    await titles();
    await post('mine');
    expect((await story.requests()).map((e) => `${e.method} ${e.url} ${e.status}`)).toEqual(['GET /api/items 200', 'POST /api/items 201']);
    const [only] = await story.requests({ method: 'POST' });
    expect(JSON.parse(only!.request.body!.text!)).toEqual({ title: 'mine' });
  });

  it("handlers: mockyard's go in front of the configured ones for the story; msw's go to the worker", async () => {
    const mswLike = { info: { header: 'GET /x' }, run: async () => undefined };
    await runner.begin({
      id: 'items--handled',
      parameters: { handlers: [{ method: 'GET', pattern: '/items', handle: () => [{ id: 9, title: 'from a handler' }] }, mswLike] },
      msw: { handlers: { auth: [mswLike], none: null } },
    });
    expect(await titles()).toEqual(['from a handler']);
    expect(controls.used).toEqual([mswLike, mswLike]);
    await runner.begin({ id: 'items--list', parameters: {} });
    expect(await titles()).toEqual(['seed']);
    expect(controls.used).toEqual([]);
  });
});

it('a control or toolbar change (the loader run again on the story shown, other args or globals) keeps the session; a remount starts afresh', async () => {
  const first = await runner.begin({ id: 'items--add', parameters: {}, renderKey: '[{},{"mockyard":"closed"}]' });
  await post('added');
  const toggled = await runner.begin({ id: 'items--add', parameters: {}, renderKey: '[{},{"mockyard":"open"}]' });
  expect(toggled.session).toBe(first.session);
  expect(await titles()).toEqual(['seed', 'added']);
  const remounted = await runner.begin({ id: 'items--add', parameters: {}, renderKey: '[{},{"mockyard":"open"}]' });
  expect(remounted.session).not.toBe(first.session);
  expect(await titles()).toEqual(['seed']);
});

it('a named session is shared by the stories naming it and keeps its writes; session: false is the mocks', async () => {
  await runner.begin({ id: 'cart--add', parameters: { session: 'cart' } });
  await post('kept');
  await runner.begin({ id: 'cart--view', parameters: { session: 'cart' } });
  expect(await titles()).toEqual(['seed', 'kept']);
  const none = await runner.begin({ id: 'plain--list', parameters: { session: false } });
  expect([none.session, controls.session]).toEqual([null, undefined]);
  expect(await titles()).toEqual(['seed']);
});

it('parameters are checked, naming the field', () => {
  expect(() => checkParameters({ scenaro: 'empty' })).toThrow(/parameters\.mockyard.*scenaro/);
  expect(() => checkParameters({ faults: {} })).toThrow(/parameters\.mockyard\.faults/);
  expect(() => checkParameters({ session: 3 })).toThrow(/parameters\.mockyard\.session/);
});

it("an unknown scenario is refused before the story renders (the engine's 400)", async () => {
  await expect(runner.begin({ id: 'x--y', parameters: { scenario: 'nope' } })).rejects.toThrow(/nope/);
});

it("initialize's files: an import.meta.glob record rooted at the folder the keys share", () => {
  expect(seedFromFiles({ '../mocks/items.json': '[]', '../scenarios/empty/items.json': { default: '[]' } })).toEqual({ 'mocks/items.json': '[]', 'scenarios/empty/items.json': '[]' });
  expect(seedFromFiles({ '../mocks/items.json': '[]' })).toEqual({ 'items.json': '[]' });
  expect(() => seedFromFiles({ '../mocks/a.json': 3 })).toThrow(/files\["\.\.\/mocks\/a\.json"\]/);
});

it('initialize refuses files together with mock.fs, naming the option, before it starts anything', async () => {
  const { initialize } = await import('../../src/storybook/preview.js');
  await expect(initialize({ files: { '../mocks/items.json': '[]' }, mock: { endpointPrefix: '/api', fs: memoryFs({}) } })).rejects.toThrow(/files.*mock\.fs/);
});
