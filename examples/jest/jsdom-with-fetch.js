// jest's jsdom environment has no fetch, Request, Response or Headers (jsdom implements none):
// this environment hands it Node's. Use it with `@jest-environment ./jsdom-with-fetch.js` or
// `testEnvironment` in the config.
import JsdomEnvironment from 'jest-environment-jsdom';
const Base = JsdomEnvironment.TestEnvironment ?? JsdomEnvironment.default ?? JsdomEnvironment;
export default class JsdomWithFetch extends Base {
  constructor(config, context) {
    super(config, context);
    for (const name of ['fetch', 'Request', 'Response', 'Headers', 'FormData', 'ReadableStream', 'WritableStream', 'TransformStream', 'TextEncoder', 'TextDecoder', 'DecompressionStream', 'CompressionStream', 'structuredClone', 'BroadcastChannel']) {
      if (this.global[name] === undefined) this.global[name] = globalThis[name];
    }
  }
}
