/**
 * The devtools Engine as the engine set holds it, under `/_mockyard`: the admin API at
 * `/_mockyard/api/` and the page at `/_mockyard/` (page-route.ts). A thin shell: the API's routes
 * (admin.ts, with the journal reader, routes description, SSE) are imported on the first admin
 * request and the page (page-route.ts and its prebuilt bundle) on the first page request, so
 * neither is in the `mockyard/sw` start-up bundle (their own chunks, as the collector's WebSocket
 * session is). A failed import answers 500 and is retried by the next request.
 * CORS as the mock API's (`mock.cors`, the same wrapper: engine/cors.ts): a page on another origin
 * may call the admin API exactly when it may call the mock API; preflights are answered before the
 * token check (a preflight never carries credentials).
 */
import { underPrefix, type Engine } from '../core/engine.js';
import { responseForError } from '../core/errors.js';
import type { MockApi } from '../engine/create-mock-api.js';
import { withMockCors } from '../engine/cors.js';
import type { AdminApi, AdminOptions } from './admin.js';
import { ADMIN_BASE, collectorBase, DEVTOOLS_BASE } from './paths.js';
import { isMockApi } from '../engine/is-mock-api.js';

export function createAdminEngine(options: AdminOptions): Engine & { close(): Promise<void> } {
  const collector = collectorBase(options.tracker);
  let api: AdminApi | undefined;
  let loading: Promise<AdminApi> | undefined;
  const load = () =>
    (loading ??= import('./admin.js').then(
      (m) => (api = m.createAdminApi(options)),
      (err: unknown) => {
        loading = undefined;
        throw err;
      },
    ));
  const handle = (request: Request): Promise<Response | undefined> => {
    const path = new URL(request.url).pathname;
    if (!underPrefix(path, ADMIN_BASE)) {
      if (!underPrefix(path, DEVTOOLS_BASE)) return Promise.resolve(undefined);
      return import('./page-route.js')
        .then((m) => m.pageResponse(request, path, collector))
        .catch((err: unknown) => responseForError(err, path, request.method.toUpperCase() === 'HEAD'));
    }
    if (api) return api.handle(request);
    return load().then(
      (a) => a.handle(request),
      (err: unknown) => responseForError(err, path),
    );
  };
  const cors = isMockApi(options.mock) ? options.mock.options.cors : undefined;
  const entry = cors ? withMockCors(cors, [DEVTOOLS_BASE], { handle, handleCached: () => undefined }) : { handle };
  return {
    prefixes: [DEVTOOLS_BASE],
    handle: (request) => entry.handle(request),
    async close() {
      const a = api ?? (loading ? await loading.catch(() => undefined) : undefined);
      await a?.close();
    },
  };
}
