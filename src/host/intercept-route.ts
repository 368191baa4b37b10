/**
 * What an in-process interception (interceptFetch's XMLHttpRequest part, src/test/xhr.ts, and its
 * node:http part under Node, src/node/client-request-interception.ts) asks of the test host: one
 * route, so every client a test's code uses is answered, or refused, by the same rule.
 */
export interface InterceptRoute {
  /** Whether the engines cover this URL (our origin and an engine's prefix). */
  claims(url: URL): boolean;
  /** The engines' answer as a network-like Response (undefined: none answered). */
  answer(request: Request): Promise<Response | undefined>;
  /** Not answered: `undefined` lets it through to the network, an Error fails it (onUnhandled: 'error'). */
  unhandled(request: Request): Error | undefined;
}

/** Starts one interception over `route`; returns the function that stops it (undefined: nothing to intercept here). */
export type Interception = (route: InterceptRoute) => (() => void) | undefined;
