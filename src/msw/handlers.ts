/**
 * The msw request handlers for mockyard's routes: every `http` / `ws` call of mockyard lives here
 * (and `setupWorker` in src/sw/msw-adapter.ts). Written to the API that msw 2.x (≥ 2.15) and 3.x
 * share: `http.all(predicate, resolver)`, `passthrough()`, `ws.link(RegExp)` with its
 * `connection` event (`client`, `server`).
 *
 *  - HTTP: one `http.all` handler per route (an endpoint prefix, the collector's base path) whose
 *    predicate tests the URL; the route's answer is returned to msw. `undefined` (no engine
 *    answers) becomes `passthrough()` for the worker host, or "not mine" for `handlersFor`, so the
 *    app's own handlers after ours get the request.
 *  - WebSocket: one `ws.link` whose RegExp matches every socket route; the exact test is ours.
 */
import { http, passthrough, ws } from 'msw';
import type { HttpRoute, PageSocket, SocketRoute } from './routes.js';

/** msw's handler types, as the installed msw names them. */
export type MswHttpHandler = ReturnType<typeof http.all>;
export type MswWebSocketHandler = ReturnType<ReturnType<typeof ws.link>['addEventListener']>;

/**
 * One catch-all handler for a route. `unanswered`: what msw gets when no engine answers.
 * With `'next'` (handlersFor) and a route whose engine forwards what it does not serve, the
 * engine is asked in the predicate, so an unanswered request does not match at all: msw then
 * applies its own rule to it (the app's later handlers, else `onUnhandledRequest`), as for any
 * request none of its handlers match. (A handler that matches but answers nothing would make
 * msw send the request to the network without that rule.)
 */
export function httpHandler(route: HttpRoute, unanswered: 'passthrough' | 'next'): MswHttpHandler {
  if (unanswered === 'next' && route.forwards) {
    const answers = new WeakMap<Request, Promise<Response | undefined>>();
    return http.all(
      async ({ request }) => {
        if (!route.test(request.url)) return false;
        let answer = answers.get(request);
        if (answer === undefined) answers.set(request, (answer = route.handle(request)));
        return (await answer) !== undefined;
      },
      async ({ request }) => {
        const answer = answers.get(request);
        answers.delete(request);
        return answer !== undefined ? answer : route.handle(request);
      },
    );
  }
  return http.all(
    ({ request }) => route.test(request.url),
    async ({ request }) => (await route.handle(request)) ?? (unanswered === 'passthrough' ? passthrough() : undefined),
  );
}

/** One link for all socket routes (the union of their patterns). */
export function socketHandler(routes: readonly SocketRoute[]): MswWebSocketHandler {
  const link = ws.link(new RegExp(routes.map((r) => `(?:${r.pattern.source})`).join('|')));
  return link.addEventListener('connection', ({ client, server }) => {
    const url = new URL(client.url);
    const route = routes.find((r) => r.test(url));
    if (!route) {
      server.connect();
      return;
    }
    const native = (client as { socket?: WebSocket }).socket;
    const socket: PageSocket = {
      url,
      get binaryType() {
        return native?.binaryType ?? 'blob';
      },
      send: (data) => client.send(data),
      close: (code, reason) => client.close(code, reason),
      onMessage: (listener) => client.addEventListener('message', (event) => listener(event.data as string | ArrayBuffer | Blob)),
      onClose: (listener) => client.addEventListener('close', (event) => listener(event.code, event.reason)),
    };
    const decided = route.connect(socket);
    if (decided === 'passthrough') server.connect();
    else if (decided instanceof Promise) {
      decided.then((d) => {
        if (d === 'passthrough') server.connect();
      }, () => client.close(1011, 'Internal error'));
    }
  });
}
