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
 * Every request of the test's browser context (its pages, their workers, `request`) carries
 * `X-Mockyard-Session: <id>` (the context's extra HTTP headers) and, for the `baseURL` origin,
 * a cookie of that name. The session is dropped after the test. The admin API is found at
 * `mockyardURL` (default: `baseURL`), with `mockyardToken` when the server requires one.
 * `@playwright/test` is an optional peer dependency: only this entry needs it.
 */
import { test as base, expect } from '@playwright/test';
import type { JournalEntry } from '../devtools/journal.js';
import { ADMIN_BASE } from '../devtools/paths.js';
import type { SessionOverride } from '../engine/sessions/overrides.js';
import type { SessionInfo } from '../engine/sessions/set.js';

export { expect };
export type { JournalEntry, SessionOverride, SessionInfo };

export const SESSION_HEADER = 'X-Mockyard-Session';

export interface MockyardFixture {
  /** This test's session id. */
  readonly id: string;
  /** The header that puts a request in this test's session (for clients outside the browser context). */
  readonly headers: Readonly<Record<string, string>>;
  /** Adds overrides to this test's session (newest first: they win over earlier ones). */
  use(...overrides: Array<SessionOverride | SessionOverride[]>): Promise<SessionInfo>;
  /** Removes this test's overrides. */
  resetHandlers(): Promise<void>;
  /** Sets this test's scenario (null: none). */
  scenario(name: string | null): Promise<SessionInfo>;
  /** Back to a fresh session: data, overrides and scenario dropped. */
  reset(): Promise<void>;
  /** This test's journal entries, oldest first; `filter` as the admin API's (method, status, path). */
  requests(filter?: { method?: string; status?: string | number; path?: string }): Promise<JournalEntry[]>;
  /**
   * The webhooks the mock sent for this test's requests (journal rows, oldest first: one per
   * attempt; `outgoing.outcome` says delivered / retrying / failed), e.g. to assert that the app
   * received `order.paid` exactly once. `filter.event` keeps one event's rows.
   */
  webhooks(filter?: { event?: string; outcome?: string }): Promise<JournalEntry[]>;
  /** The session as the server sees it (change counts…). */
  info(): Promise<SessionInfo>;
}

export interface MockyardOptions {
  /** Where the mockyard server is (its admin API under /_mockyard/api); default: `baseURL`. */
  mockyardURL: string | undefined;
  /** Bearer token of the admin API (`devtools: { token }`), when the server requires one. */
  mockyardToken: string | undefined;
}

function sessionIdFor(testId: string, retry: number): string {
  const tail = globalThis.crypto.randomUUID().slice(0, 8);
  return `pw-${testId.replace(/[^A-Za-z0-9._:~-]/g, '-').slice(0, 80)}-r${retry}-${tail}`;
}

export const test = base.extend<{ mockyard: MockyardFixture } & MockyardOptions>({
  mockyardURL: [undefined, { option: true }],
  mockyardToken: [undefined, { option: true }],

  mockyard: async ({ baseURL, mockyardURL, mockyardToken }, use, testInfo) => {
    const root = mockyardURL ?? baseURL;
    if (!root) throw new Error('mockyard/playwright: set use.baseURL (or use.mockyardURL) to the mockyard server');
    const id = sessionIdFor(testInfo.testId, testInfo.retry);
    const admin = `${root.replace(/\/+$/, '')}${ADMIN_BASE}/sessions/${encodeURIComponent(id)}`;
    const call = async (path: string, init: RequestInit = {}): Promise<unknown> => {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (mockyardToken) headers.authorization = `Bearer ${mockyardToken}`;
      const res = await fetch(`${admin}${path}`, { ...init, headers });
      const text = await res.text();
      if (!res.ok) throw new Error(`mockyard: ${init.method ?? 'GET'} ${admin}${path} answered ${res.status}: ${text}`);
      return text ? JSON.parse(text) : undefined;
    };
    const fixture: MockyardFixture = {
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
        const q = new URLSearchParams();
        for (const [k, v] of Object.entries(filter)) if (v !== undefined) q.set(k, String(v));
        const { entries } = (await call(`/requests${q.size ? `?${q}` : ''}`)) as { entries: JournalEntry[] };
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
