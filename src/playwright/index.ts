/**
 * `mockyard/playwright`: a Playwright Test fixture that gives every test its own mockyard session
 * (docs/sessions.md), so tests running in parallel workers against one mock server never see
 * each other's writes, scenarios or overrides.
 *
 *   import { test, expect } from 'mockyard/playwright';
 *
 *   test('adds an item', async ({ page, mockyard }) => {
 *     await mockyard.use({ method: 'GET', path: '/flags', body: { beta: true } });
 *     await mockyard.scenario('empty-cart');
 *     await page.goto('/');
 *     …
 *     expect((await mockyard.requests()).map((e) => e.method)).toContain('POST');
 *   });
 *
 *   await mockyard.data('todos').update(3, { done: true });        // this test's copy of the data
 *   await mockyard.route('GET /api/todos').fault('connection-reset'); // this test's route
 *
 * `data(name)` and `route('METHOD /path')` are the devtools page's own admin calls (docs/devtools.md),
 * scoped to the test's session: the store's validation, ids and change events apply.
 *
 * Every request of the test's browser context (its pages, their workers, `request`) carries
 * `X-Mockyard-Session: <id>` (the context's extra HTTP headers) and, for the `baseURL` origin,
 * a cookie of that name. The session is dropped after the test. The admin API is found at
 * `mockyardURL` (default: `baseURL`), with `mockyardToken` when the server requires one.
 * `@playwright/test` is an optional peer dependency: only this entry needs it.
 */
import { test as base, expect, type TestType } from '@playwright/test';
import type { JournalEntry } from '../devtools/journal.js';
import { ADMIN_BASE } from '../devtools/paths.js';
import type { SessionOverride } from '../engine/sessions/overrides.js';
import type { SessionInfo } from '../engine/session-set.js';
import type { ApiRoutes, RouteAnswer } from '../engine/types.js';

export { expect };
export type { JournalEntry, SessionOverride, SessionInfo };

export const SESSION_HEADER = 'X-Mockyard-Session';

/**
 * An override as an `Api` type (docs/contract.md) allows it: its `method` and `path` one of
 * `Api['routes']` (GET may be left out) and its `body` that route's answer. Without routes in
 * `Api`, any override.
 */
export type OverrideFor<Api> = [ApiRoutes<Api>] extends [never]
  ? SessionOverride
  : {
      [K in keyof ApiRoutes<Api> & string]: K extends `${infer M} ${infer P}`
        ? Omit<SessionOverride, 'method' | 'path' | 'body'> & { path: P; body?: RouteAnswer<ApiRoutes<Api>[K]> } & (M extends 'GET' ? { method?: 'GET' } : { method: M })
        : never;
    }[keyof ApiRoutes<Api> & string];

export interface MockyardFixture<Api = {}> {
  /** This test's session id. */
  readonly id: string;
  /** The header that puts a request in this test's session (for clients outside the browser context). */
  readonly headers: Readonly<Record<string, string>>;
  /** Adds overrides to this test's session (newest first: they win over earlier ones). */
  use(...overrides: Array<OverrideFor<Api> | OverrideFor<Api>[]>): Promise<SessionInfo>;
  /** Removes this test's overrides. */
  resetHandlers(): Promise<void>;
  /** Sets this test's scenario (null: none). */
  scenario(name: string | null): Promise<SessionInfo>;
  /** Back to a fresh session: data, overrides and scenario dropped. */
  reset(): Promise<void>;
  /** This test's journal entries (the requests it made, not the webhooks the mock sent), oldest first; `filter` as the admin API's (method, status, path). */
  requests(filter?: { method?: string; status?: string | number; path?: string }): Promise<JournalEntry[]>;
  /**
   * The webhooks the mock sent for this test's requests (journal rows, oldest first: one per
   * attempt; `outgoing.outcome` says delivered / retrying / failed), e.g. to assert that the app
   * received `order.paid` exactly once. `filter.event` keeps one event's rows.
   */
  webhooks(filter?: { event?: string; outcome?: string }): Promise<JournalEntry[]>;
  /** The session as the server sees it (change counts…). */
  info(): Promise<SessionInfo>;
  /** A collection of this test's copy of the data (the admin API's data routes, `?session=<id>`). */
  data(collection: string): MockyardData;
  /**
   * A route of this test's session: `'GET /api/todos'`, `'/api/todos/:id'` (any method), the path
   * as the app requests it (the mock API's prefix is taken off) or as a pattern below it.
   */
  route(route: string): MockyardRoute;
}

/** A collection item. */
export type MockyardItem = Record<string, unknown>;

export interface MockyardData {
  /** One page: `{ items, total }`, filtered (`q`, `filter`), sorted and cut on the server. */
  list(query?: { offset?: number; limit?: number; sort?: string; order?: 'asc' | 'desc'; q?: string; filter?: Record<string, unknown> }): Promise<{ items: MockyardItem[]; total: number }>;
  /** Every item (what the page's Export gives). */
  all(): Promise<MockyardItem[]>;
  /** The item, or undefined when there is none. */
  get(id: string | number): Promise<MockyardItem | undefined>;
  /** Adds an item (an id is assigned when missing); the item as stored. */
  insert(item: MockyardItem): Promise<MockyardItem>;
  /** Merges `changes` into the item. */
  update(id: string | number, changes: MockyardItem): Promise<MockyardItem>;
  /** Replaces the item (its id stays). */
  replace(id: string | number, item: MockyardItem): Promise<MockyardItem>;
  remove(id: string | number): Promise<void>;
  /** A copy with a new id. */
  duplicate(id: string | number): Promise<MockyardItem>;
  /** Replaces every item (in one write). */
  import(items: MockyardItem[]): Promise<void>;
  /** Back to the shared data's version of the collection. */
  reset(): Promise<void>;
}

export interface MockyardRoute {
  /** Every matching request waits `ms` (a number, [min, max] or { p50, p99 }). */
  delay(ms: SessionOverride['delay']): Promise<SessionInfo>;
  /** Answers with `status`: the JSON error body for 4xx/5xx, else an empty answer (or `body`). */
  status(status: number, body?: unknown): Promise<SessionInfo>;
  /** A connection fault (`connection-reset`, `truncated-body`, `malformed-chunk`, `slow-body`, `no-answer`); `errorRate` a share of requests. */
  fault(fault: NonNullable<SessionOverride['fault']>, options?: { errorRate?: number; seed?: number | string }): Promise<SessionInfo>;
  /** Answers with `body` (JSON, or text for a string). */
  respond(body: unknown, init?: { status?: number; headers?: Record<string, string> }): Promise<SessionInfo>;
  /**
   * Answered as if the request sent this `Prefer` (the OpenAPI backend's rule: `'code=404'`,
   * `'example=cat'`, `'dynamic=true'`), as `use({ method, path, prefer })` with the path below the prefix.
   */
  prefer(prefer: string): Promise<SessionInfo>;
  /** The route answers 404, as if it did not exist. */
  off(): Promise<SessionInfo>;
  /** Removes this route's overrides (the others stay). */
  reset(): Promise<SessionInfo>;
}

export interface MockyardOptions {
  /** Where the mockyard server is (its admin API under /_mockyard/api); default: `baseURL`. */
  mockyardURL: string | undefined;
  /** Bearer token of the admin API (`devtools: { token }`), when the server requires one. */
  mockyardToken: string | undefined;
}

/**
 * One admin API call; its errors say what to do: an answer that is not the admin API's JSON (a dev
 * server's index.html: no mockyard there), a 401 (the token), the guard's 403/404 (its message
 * names the option), a server that cannot be reached.
 */
async function callAdmin(url: string, init: RequestInit, o: { root: string; token: string | undefined; missing?: ((text: string) => boolean) | undefined }): Promise<unknown> {
  const method = init.method ?? 'GET';
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (o.token) headers.authorization = `Bearer ${o.token}`;
  let res: Response;
  try {
    res = await fetch(url, { ...init, headers });
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    throw new Error(`mockyard/playwright: cannot reach ${o.root} (${cause?.code ?? cause?.message ?? (err as Error).message}): start the mockyard server (the CLI, serve(), or the Vite plugin's dev server, e.g. as Playwright's webServer), or set use.mockyardURL to where it runs`);
  }
  const text = await res.text();
  const type = res.headers.get('content-type') ?? '';
  if (!/json/i.test(type) && text !== '') {
    throw new Error(
      `mockyard/playwright: ${method} ${url} answered ${res.status} ${type || 'without a Content-Type'}, not the admin API's JSON: no mockyard serves ${o.root}. ` +
        'Set use.mockyardURL to the server with mockyard (the CLI, serve(), or the dev server running the Vite plugin / middleware), or use.baseURL when the app is served there',
    );
  }
  if (res.status === 404 && o.missing?.(text)) return undefined;
  if (!res.ok) {
    let message = text;
    try {
      message = (JSON.parse(text) as { message?: string }).message ?? text;
    } catch {
      // not JSON: the text as it is
    }
    const hint =
      res.status === 401
        ? o.token
          ? ' Check use.mockyardToken: it must be the server\'s devtools.token.'
          : ' Set use.mockyardToken to the server\'s devtools.token.'
        : '';
    throw new Error(`mockyard/playwright: ${method} ${url} answered ${res.status}: ${message}.${hint}`);
  }
  return text ? JSON.parse(text) : undefined;
}

function sessionIdFor(testId: string, retry: number): string {
  const tail = globalThis.crypto.randomUUID().slice(0, 8);
  return `pw-${testId.replace(/[^A-Za-z0-9._:~-]/g, '-').slice(0, 80)}-r${retry}-${tail}`;
}

export const test = base.extend<{ mockyard: MockyardFixture } & MockyardOptions>({
  // Options (`use: { mockyardURL }`); typed on PlaywrightTestOptions too (the declaration at the
  // end), where Playwright's types take no `option` flag: the flag is what makes them options.
  mockyardURL: [undefined, { option: true }] as never,
  mockyardToken: [undefined, { option: true }] as never,

  mockyard: async ({ baseURL, mockyardURL, mockyardToken }, use, testInfo) => {
    const root = mockyardURL ?? baseURL;
    if (!root) throw new Error('mockyard/playwright: set use.baseURL (or use.mockyardURL) to the mockyard server');
    const id = sessionIdFor(testInfo.testId, testInfo.retry);
    const admin = `${root.replace(/\/+$/, '')}${ADMIN_BASE}/sessions/${encodeURIComponent(id)}`;
    const adminRoot = `${root.replace(/\/+$/, '')}${ADMIN_BASE}`;
    const adminCall = (url: string, init: RequestInit, missing?: (text: string) => boolean) => callAdmin(url, init, { root, token: mockyardToken, missing });
    const call = (path: string, init: RequestInit = {}): Promise<unknown> => adminCall(`${admin}${path}`, init);
    const rootCall = (path: string, init: RequestInit = {}): Promise<unknown> =>
      adminCall(`${adminRoot}${path}`, init, init.method === undefined ? (text) => /does not exist/.test(text) : undefined);
    let prefixes: Promise<string[]> | undefined;
    const below = async (path: string): Promise<string> => {
      prefixes ??= (rootCall('/routes') as Promise<{ mock: { prefixes: string[] } | null }>).then((r) => (r.mock?.prefixes ?? []).filter((p) => p !== '/').sort((a, b) => b.length - a.length));
      for (const p of await prefixes) if (path === p || path.startsWith(`${p.replace(/\/$/, '')}/`)) return path.slice(p.replace(/\/$/, '').length) || '/';
      return path;
    };
    const session = `session=${encodeURIComponent(id)}`;
    const data = (name: string): MockyardData => {
      const at = (extra = '') => `/data/${encodeURIComponent(name)}${extra}`;
      const item = (itemId: string | number, extra = '') => `${at(`/${encodeURIComponent(String(itemId))}${extra}`)}?${session}`;
      const json = (method: string, body: unknown): RequestInit => ({ method, body: JSON.stringify(body) });
      return {
        list: async (query = {}) => {
          const q = new URLSearchParams(session);
          for (const [k, v] of Object.entries(query)) if (v !== undefined) q.set(k, typeof v === 'object' ? JSON.stringify(v) : String(v));
          const page = (await rootCall(`${at()}?${q}`)) as { items: MockyardItem[]; total: number };
          return { items: page.items, total: page.total };
        },
        all: () => rootCall(`${at()}?export=true&${session}`) as Promise<MockyardItem[]>,
        get: (itemId) => rootCall(item(itemId)) as Promise<MockyardItem | undefined>,
        insert: (value) => rootCall(`${at()}?${session}`, json('POST', value)) as Promise<MockyardItem>,
        update: (itemId, changes) => rootCall(item(itemId), json('PATCH', changes)) as Promise<MockyardItem>,
        replace: (itemId, value) => rootCall(item(itemId), json('PUT', value)) as Promise<MockyardItem>,
        remove: async (itemId) => {
          await rootCall(item(itemId), { method: 'DELETE' });
        },
        duplicate: (itemId) => rootCall(item(itemId, '/duplicate'), { method: 'POST' }) as Promise<MockyardItem>,
        import: async (items) => {
          await rootCall(`${at()}?${session}`, json('PUT', items));
        },
        reset: async () => {
          await rootCall(`${at('/reset')}?${session}`, { method: 'POST' });
        },
      };
    };
    const route = (spec: string): MockyardRoute => {
      const m = /^\s*(?:([A-Za-z]+|\*)\s+)?(\S+)\s*$/.exec(spec);
      if (!m) throw new Error(`mockyard.route: expected 'METHOD /path' or '/path' (got ${JSON.stringify(spec)})`);
      const method = (m[1] ?? '*').toUpperCase();
      const add = async (fields: Omit<SessionOverride, 'method' | 'path'>) => call('/overrides', { method: 'POST', body: JSON.stringify({ method, path: await below(m[2]!), ...fields }) }) as Promise<SessionInfo>;
      return {
        delay: (ms) => add({ delay: ms }),
        status: (status, body) => add(body !== undefined ? { status, body } : status >= 400 ? { status, errorRate: 1 } : { status }),
        fault: (fault, options = {}) => add({ fault, ...options }),
        respond: (body, init = {}) => add({ body, ...(init.status !== undefined ? { status: init.status } : {}), ...(init.headers ? { headers: init.headers } : {}) }),
        prefer: (prefer) => add({ prefer }),
        off: () => add({ status: 404, errorRate: 1 }),
        reset: async () => {
          const path = await below(m[2]!);
          let info = (await call('')) as SessionInfo;
          for (let i = info.overrides.length - 1; i >= 0; i--) {
            const o = info.overrides[i]!;
            if (o.path === path && (o.method ?? '*') === method) info = (await call(`/overrides/${i}`, { method: 'DELETE' })) as SessionInfo;
          }
          return info;
        },
      };
    };
    const fixture: MockyardFixture = {
      data,
      route,
      id,
      headers: { [SESSION_HEADER]: id },
      use: (...overrides) => call('/overrides', { method: 'POST', body: JSON.stringify(overrides.flat()) }) as Promise<SessionInfo>,
      resetHandlers: async () => {
        await call('/overrides', { method: 'DELETE' }).catch(() => undefined);
      },
      scenario: (name) => call('/scenario', { method: 'PUT', body: JSON.stringify({ name }) }) as Promise<SessionInfo>,
      reset: async () => {
        await call('/reset', { method: 'POST' }).catch(() => undefined);
      },
      requests: async (filter = {}) => {
        const q = new URLSearchParams({ outgoing: 'false' }); // the webhooks it sent: webhooks()
        for (const [k, v] of Object.entries(filter)) if (v !== undefined) q.set(k, String(v));
        const { entries } = (await call(`/requests?${q}`)) as { entries: JournalEntry[] };
        return entries.reverse();
      },
      webhooks: async (filter = {}) => {
        const { entries } = (await call('/requests?outgoing=true')) as { entries: JournalEntry[] };
        return entries.reverse().filter((e) => (filter.event === undefined || e.outgoing?.event === filter.event) && (filter.outcome === undefined || e.outgoing?.outcome === filter.outcome));
      },
      info: () => call('') as Promise<SessionInfo>,
    };
    await use(fixture);
    await fetch(admin, { method: 'DELETE', headers: mockyardToken ? { authorization: `Bearer ${mockyardToken}` } : {} }).catch(() => undefined);
  },

  // The test's context (its pages, their workers) and `request` carry the session header.
  extraHTTPHeaders: async ({ extraHTTPHeaders, mockyard }, use) => {
    await use({ ...extraHTTPHeaders, ...mockyard.headers });
  },

  // A cookie too, for what cannot carry headers the context adds (navigations from other tabs…).
  context: async ({ context, baseURL, mockyard }, use) => {
    if (baseURL) await context.addCookies([{ name: SESSION_HEADER, value: mockyard.id, url: baseURL }]);
    await use(context);
  },
});

// `use: { mockyardURL, mockyardToken }` type-checks in a plain `defineConfig({ … })` of
// playwright.config.ts once this entry is part of the program (a spec imports it).
declare module '@playwright/test' {
  interface PlaywrightTestOptions {
    /** mockyard/playwright: where the mockyard server is (its admin API under /_mockyard/api); default `baseURL`. */
    mockyardURL?: string | undefined;
    /** mockyard/playwright: the admin API's bearer token (`devtools: { token }`), when the server requires one. */
    mockyardToken?: string | undefined;
  }
}
/**
 * `test` with its `mockyard` fixture typed by `Api` (docs/contract.md): `mockyard.use(...)`
 * overrides must name the API's routes and give their answers. The same object as `test`.
 *
 *   const test = testFor<Api>();
 *   test('…', async ({ mockyard }) => { await mockyard.use({ path: '/todos/:id', body: todo }); });
 */
export function testFor<Api>(): TestFor<Api> {
  return test as unknown as TestFor<Api>;
}

type TestArgs = typeof test extends TestType<infer T, infer _W> ? T : never;
type WorkerArgs = typeof test extends TestType<infer _T, infer W> ? W : never;
export type TestFor<Api> = TestType<Omit<TestArgs, 'mockyard'> & { mockyard: MockyardFixture<Api> }, WorkerArgs>;
