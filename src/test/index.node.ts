/**
 * `mockyard/test` under Node (the `node` export condition): interceptFetch as in every
 * environment (src/test/index.ts), plus clients on `node:http` / `node:https` (axios's Node
 * adapter, got, node-fetch v2, superagent) through src/node/client-request-interception.ts.
 * The host-neutral entry stays free of Node built-ins for pages and browser bundles.
 */
import type { Engine } from '../core/engine.js';
import { interceptNodeHttp } from '../node/client-request-interception.js';
import type { MockApi } from '../engine/create-mock-api.js';
import { interceptWith, type FetchInterception, type InterceptFetchOptions } from './intercept-fetch.js';

export type { FetchInterception, InterceptFetchOptions, OnUnhandled, RouteRequest } from './intercept-fetch.js';

/** interceptFetch: fetch, XMLHttpRequest where there is one, and node:http / node:https clients (`http: false` leaves them alone). */
export function interceptFetch<Api = {}>(engines: MockApi<Api> | Engine | readonly Engine[], options: InterceptFetchOptions = {}): FetchInterception<Api> {
  return interceptWith(engines, options, [interceptNodeHttp]);
}
