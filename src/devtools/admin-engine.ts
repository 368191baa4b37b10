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
  const entry = cors ? withMockCors(cors, [DEVTOOLS_BASE], { handle, handleCached: () => undefined }) : { handle };
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
