/**
 * `mockyard/fetch`: the engines as a standard fetch handler, for any runtime that serves one —
 * Deno (`Deno.serve(app.fetch)`), Bun (`Bun.serve({ fetch: app.fetch })`), Workers-style
 * runtimes (`export default app`), or a test that calls it with plain `Request`s:
 *
 *   import { createMockApi, memoryFs } from 'mockyard';   // or options: { mock: { … } }
 *   import { fetchHandler } from 'mockyard/fetch';
 *   const app = fetchHandler({ mock: { endpointPrefix: '/api', fs: memoryFs({ 'users.json': [] }) } });
 *   export default app;                                   // { fetch }
 *
 * The host is `createHost` (src/host/) on the web-standard runtime (`{}`: `fs` given in the
 * options, fetch to reach a proxy target, DecompressionStream for compressed bodies), made on the
 * first request so the module can export it synchronously (Workers-style runtimes allow no I/O at
 * the top level); an options mistake is thrown by `ready()` and answered 500 to requests.
 * Every answer is a platform Response; what no engine answers is the JSON 404. WebSockets are not
 * bridged here: each runtime has its own upgrade call (`Deno.upgradeWebSocket`, `server.upgrade`),
 * which would adapt to the engines' socket seam (core/socket.ts) next to this file.
 */
import { errorResponse } from '../core/errors.js';
import { toNativeResponse } from '../core/fast-response.js';
import { createHost, type Host, type HostConfig } from '../host/create-host.js';

export interface FetchHandlerOptions extends Omit<HostConfig, 'local'> {
  /** Devtools on without a token (`/_mockyard/api`): only where nobody else reaches the server. */
  local?: boolean;
}

export interface FetchHandler {
  /** A standard fetch handler: the engines' answer, else the JSON 404. Never rejects. */
  fetch(request: Request): Promise<Response>;
  /** The host, once made (rejects with the options' mistake). */
  ready(): Promise<Host>;
  /** Closes the engines made from options. */
  close(): Promise<void>;
}

export function fetchHandler(options: FetchHandlerOptions = {}): FetchHandler {
  let host: Promise<Host> | undefined;
  const ready = () => (host ??= createHost(options));
  return {
    async fetch(request) {
      let h: Host;
      try {
        h = await ready();
      } catch (err) {
        console.error(`mockyard: ${(err as Error)?.message ?? String(err)}`);
        return toNativeResponse(errorResponse(500, 'Internal Server Error', new URL(request.url).pathname));
      }
      return h.fetch(request);
    },
    ready,
    close: async () => {
      if (host) await (await host.catch(() => undefined))?.close();
    },
  };
}
