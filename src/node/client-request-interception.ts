/**
 * interceptFetch under Node (the `node` condition of `mockyard/test`, src/test/index.node.ts):
 * clients on `node:http` / `node:https` — axios's Node adapter, got, node-fetch v2, superagent —
 * answered by the engines through @mswjs/interceptors' ClientRequestInterceptor (what msw's
 * `setupServer` runs on), with the same route as fetch and XMLHttpRequest: what the engines
 * cover is answered in-process, anything else is refused (`onUnhandled: 'error'`, the client's
 * request fails with interceptFetch's message) or goes to the network (`'bypass'`).
 * WebSocket handshakes (`Upgrade`) are left alone: the engines' sockets are not served here.
 */
import { syncBuiltinESMExports } from 'node:module';
import { ClientRequestInterceptor } from '@mswjs/interceptors/ClientRequest';
import { toNativeResponse } from '../core/fast-response.js';
import type { InterceptRoute } from '../host/intercept-route.js';

export function interceptNodeHttp(route: InterceptRoute): () => void {
  const interceptor = new ClientRequestInterceptor();
  interceptor.on('request', async ({ request, controller }) => {
    if (request.headers.has('upgrade')) return;
    if (route.claims(new URL(request.url))) {
      const response = await route.answer(request);
      if (response !== undefined) return controller.respondWith(toNativeResponse(response));
    }
    const error = route.unhandled(request);
    if (error) controller.errorWith(error);
  });
  interceptor.apply();
  // `import { request } from 'node:http'` binds the export, not the property the interceptor
  // patched: sync the builtins' ESM exports both ways.
  syncBuiltinESMExports();
  return () => {
    interceptor.dispose();
    syncBuiltinESMExports();
  };
}
