/**
 * The devtools admin Engine as the engine set holds it: a thin shell whose routes (admin.ts, with
 * the journal reader, routes description, SSE) are imported on the first admin request, so they
 * stay out of the page's `mockyard/sw` start-up bundle (their own chunk, as the collector's
 * WebSocket session is). A failed import answers 500 and is retried by the next request.
 */
import { underPrefix, type Engine } from '../core/engine.js';
import { responseForError } from '../core/errors.js';
import type { AdminApi, AdminOptions } from './admin.js';

/** Where the admin API lives (fixed, like the collector's `/_tracker`). */
export const ADMIN_BASE = '/_mockyard/api';

export function createAdminEngine(options: AdminOptions): Engine & { close(): Promise<void> } {
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
  return {
    prefixes: [ADMIN_BASE],
    handle(request) {
      if (api) return api.handle(request);
      const path = new URL(request.url).pathname;
      if (!underPrefix(path, ADMIN_BASE)) return Promise.resolve(undefined);
      return load().then(
        (a) => a.handle(request),
        (err: unknown) => responseForError(err, path),
      );
    },
    async close() {
      const a = api ?? (loading ? await loading.catch(() => undefined) : undefined);
      await a?.close();
    },
  };
}
