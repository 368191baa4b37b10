/**
 * `mockyard/test`: the engines inside a test runner, without a server or msw.
 *
 *   import { createMockApi, memoryFs } from 'mockyard';
 *   import { interceptFetch } from 'mockyard/test';
 *
 *   const fs = memoryFs({ 'users.json': [{ id: 1, name: 'Ada' }] });
 *   const api = createMockApi({ endpointPrefix: '/api', fs });
 *   const mocked = interceptFetch(api);       // fetch('/api/users') now answers from `fs`
 *   …
 *   mocked.restore();
 *
 * Host-neutral (no Node built-ins): vitest's node, happy-dom and jsdom environments, jest, a page.
 */
export { interceptFetch, type FetchInterception, type InterceptFetchOptions, type OnUnhandled, type RouteRequest } from './intercept-fetch.js';
