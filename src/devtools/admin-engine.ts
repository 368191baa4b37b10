/**
 * The devtools Engine as the engine set holds it, under `/_mockyard`: the admin API at
 * `/_mockyard/api/` and the page at `/_mockyard/` (page-route.ts). A thin shell: the API's routes
 * (admin.ts, with the journal reader, routes description, SSE) are imported on the first admin
 * request and the page (page-route.ts and its prebuilt bundle) on the first page request, so
 * neither is in the `mockyard/browser` start-up bundle (their own chunks, as the collector's WebSocket
 * session is). A failed import answers 500 and is retried by the next request.
 * CORS as the mock API's (`mock.cors`, the same wrapper: engine/cors.ts): a page on another origin
 * may call the admin API exactly when it may call the mock API; preflights are answered before the
 * guard (a preflight never carries credentials and changes nothing). Every other request passes
 * the guard first (guard.ts: the Host rule, the token, the Origin rule for writes).
 *
 * The devtools folder (src/devtools/) in detail:
 * - `journal.ts`: `createJournal({ size, bodyLimit })`, a ring fed by an observer the host adds
 *   (src/host/journal.ts, through the mock API's `observe`) when `mock.journal` is on (default). Captures only what is at hand (FastResponse state; request bytes
 *   `readBody` left on the Request under `kBodyBytes`, core/body.ts); never reads or tees a stream
 *   (a stream whose producer keeps a preview, core/stream-preview.ts, shows its first bytes so far).
 *   Webhooks the mock sends are rows too (`recordOutgoing`, fed by `api.webhooks.observe` in
 *   src/host/journal.ts): one per attempt, `outgoing` naming the delivery and the entry of the
 *   request that caused it (engine/webhooks/cause.ts marks such requests), in that request's session.
 * - `admin.ts`: an Engine at `/_mockyard/api` made by `assembleEngines` (never by a host directly),
 *   given the set's mock API and collector (also found among ready-made `engines`, the CLI's).
 * - `guard.ts`: THE admin access rule, the one place it lives: `resolveDevtoolsGuard(option, local,
 *   name, server)` (on/off, the token, `allowedHosts` / `allowedOrigins`; node hosts pass `server`, their
 *   listen address and their server's own host rule — Vite's `allowedHosts`) and `refusal(guard,
 *   request, api)`, which the admin engine asks before any route of the page or the API: a Host that
 *   is not one of the server's names (DNS rebinding) → 403, a missing token → 401, a state-changing
 *   request from another origin (`Origin`, `Sec-Fetch-Site: cross-site`; simple requests included)
 *   → 403; each body's `option` names what to set. A node host with the devtools off holds
 *   `devtoolsOffEngine` (admin-engine.ts) at `/_mockyard`: a JSON 404 naming `devtools`.
 * - `admin-engine.ts`: the Engine at `/_mockyard` the set holds: CORS as the mock API's, then the
 *   admin API (admin.ts) or the page (page-route.ts), each imported on its first request.
 * - `page/`: the page's sources (TSX, type-checked with the rest; excluded from the tsc build).
 *   `npm run build` bundles them with Vite into one ES module + one stylesheet, written as strings
 *   into `page-assets.generated.ts`, which tsc compiles into dist/ like any module: the node host
 *   serves them at `/_mockyard/`, and the page host (`src/sw/devtools-overlay.ts`) imports the same
 *   module on demand and mounts the page over the app in a shadow root, calling the tab's engines
 *   in-process (MSW's worker never intercepts navigations).
 *
 * The folder's rooms, host-neutral (no node:*): paths.ts (/_mockyard, /_mockyard/api, engine names),
 * journal.ts (request ring), admin-engine.ts (the
 * /_mockyard Engine shell), admin.ts (/_mockyard/api), page-route.ts (the page),
 * routes-info.ts (GET routes), guard.ts (THE admin access rule), journaled-engine.ts
 * (another engine's requests — the collector's — in the mock API's journal); the
 * editing routes: admin-data.ts (collections through the store, shared or a session's),
 * admin-files.ts (mock files with If-Match), admin-sessions.ts, admin-openapi.ts,
 * admin-record.ts (recording through the proxy), admin-events.ts (JSON Lines export),
 * etag.ts (THE entity tags and 412 rule of those writes)
 * page/: the devtools page (Preact + uPlot, browser only), bundled at build time by
 * scripts/build-devtools-page.mjs into page-assets.generated.ts (gitignored)
 */
import { underPrefix, type Engine } from '../core/engine.js';
import { errorResponse, responseForError } from '../core/errors.js';
import type { MockApi } from '../engine/create-mock-api.js';
import { withMockCors } from '../engine/cors.js';
import type { AdminApi, AdminOptions } from './admin.js';
import { ADMIN_BASE, collectorBase, DEVTOOLS_BASE, DEVTOOLS_OFF_KIND } from './paths.js';
import { isMockApi } from '../engine/is-mock-api.js';
import { refusal, type DevtoolsGuard } from './guard.js';

/** The admin engine; every request passes the guard (guard.ts: Host, token, Origin) first. */
export function createAdminEngine(options: Omit<AdminOptions, 'token'> & { guard: DevtoolsGuard }): Engine & { close(): Promise<void> } {
  const { guard } = options;
  const collector = collectorBase(options.tracker);
  let adminApi: AdminApi | undefined;
  let loading: Promise<AdminApi> | undefined;
  const load = () =>
    (loading ??= import('./admin.js').then(
      (m) => (adminApi = m.createAdminApi(options)),
      (err: unknown) => {
        loading = undefined;
        throw err;
      },
    ));
  const cors = isMockApi(options.mock) ? options.mock.options.cors : undefined;
  // The mock API's CORS list counts as allowed origins; its wildcard does not.
  const corsAllows = cors && !cors.wildcard ? (origin: string) => cors.allow(origin) : undefined;
  const handle = (request: Request): Promise<Response | undefined> => {
    const path = new URL(request.url).pathname;
    const api = underPrefix(path, ADMIN_BASE);
    if (!api && !underPrefix(path, DEVTOOLS_BASE)) return Promise.resolve(undefined);
    const refused = refusal(guard, request, api, corsAllows);
    if (refused) return Promise.resolve(responseForError(refused, path, request.method.toUpperCase() === 'HEAD'));
    if (!api) {
      return import('./page-route.js')
        .then((m) => m.pageResponse(request, path, collector))
        .catch((err: unknown) => responseForError(err, path, request.method.toUpperCase() === 'HEAD'));
    }
    if (adminApi) return adminApi.handle(request);
    return load().then(
      (a) => a.handle(request),
      (err: unknown) => responseForError(err, path),
    );
  };
  const entry = cors ? withMockCors(cors, [DEVTOOLS_BASE], { handle, handleCached: () => undefined, adopt: (_request, answer) => answer() }) : { handle };
  return {
    prefixes: [DEVTOOLS_BASE],
    handle: (request) => entry.handle(request),
    async close() {
      const a = adminApi ?? (loading ? await loading.catch(() => undefined) : undefined);
      await a?.close();
    },
  };
}

/**
 * What a node host answers under `/_mockyard/` when the devtools are off: a JSON 404 naming the
 * option that turns them on, instead of whatever comes next (a dev server's SPA fallback would
 * answer the admin API with the app's index.html).
 */
export function devtoolsOffEngine(turnedOff: boolean): Engine {
  const message = turnedOff
    ? 'The devtools are off on this host (devtools: false): remove that option to turn them on'
    : 'The devtools are off on this host: they are on by default only on a loopback address (localhost, 127.0.0.1); elsewhere set devtools: { token: "<at least 16 characters>" } and send Authorization: Bearer <token>';
  return {
    prefixes: [DEVTOOLS_BASE],
    kind: DEVTOOLS_OFF_KIND,
    handle(request) {
      const path = new URL(request.url).pathname;
      if (!underPrefix(path, DEVTOOLS_BASE)) return Promise.resolve(undefined);
      return Promise.resolve(errorResponse(404, message, path, { details: { option: 'devtools' }, head: request.method.toUpperCase() === 'HEAD' }));
    },
  };
}
