/**
 * The Request interceptFetch hands to the engines for the common call `fetch(url)` /
 * `fetch(url, { method, headers })` without a body: building a platform Request (WebIDL checks,
 * Headers, signal) costs about as much as the engine's answer to a cached page. The stand-in's
 * prototype chain is `Request.prototype` (so `instanceof Request` holds); it answers `url`,
 * `method`, `headers`, `body` (null) and `bodyUsed` itself, and everything else (`signal`,
 * `clone()`, `json()`, `cache`, …) from a real Request built from the same arguments on first use
 * (core/delegate-prototype.ts). Calls with a body, a signal or other options get a real Request.
 */
import { delegateMissing } from '../core/delegate-prototype.js';

const NativeRequest: typeof Request = globalThis.Request;
const kInit = Symbol('mockyard.test.init');
const kNative = Symbol('mockyard.test.native');
const kHeaders = Symbol('mockyard.test.headers');

const CHEAP_KEYS = new Set(['method', 'headers']);

class LazyRequest {
  readonly url: string;
  readonly method: string;
  private readonly [kInit]: RequestInit | undefined;
  private [kNative]: Request | undefined;
  private [kHeaders]: Headers | undefined;

  constructor(url: string, method: string, init: RequestInit | undefined) {
    this.url = url;
    this.method = method;
    this[kInit] = init;
    // Invalid headers throw now, as fetch() would.
    if (init?.headers !== undefined) this[kHeaders] = new Headers(init.headers);
  }

  get headers(): Headers {
    return (this[kHeaders] ??= new Headers(this[kInit]?.headers));
  }

  get body(): null {
    return null;
  }

  get bodyUsed(): boolean {
    return false;
  }
}
Object.setPrototypeOf(LazyRequest.prototype, NativeRequest.prototype);
delegateMissing(LazyRequest, NativeRequest, (self) => (self[kNative] ??= new NativeRequest(self.url, self[kInit])));

/**
 * The stand-in needs a Request whose members live on its prototype (Node's). Where they are
 * instance fields (some DOM implementations), every call gets a real Request.
 */
const LAZY_OK = ['signal', 'json', 'clone', 'arrayBuffer', 'cache'].every((key) => Object.getOwnPropertyDescriptor(NativeRequest.prototype, key) !== undefined);

const METHODS_WITHOUT_BODY = new Set(['GET', 'HEAD', 'DELETE', 'OPTIONS']);

/**
 * A Request for `fetch(href, init)`: the cheap stand-in when `init` holds nothing but a
 * standard body-less method and headers, else a real Request.
 */
export function requestFor(href: string, init: RequestInit | undefined): Request {
  if (!LAZY_OK) return new NativeRequest(href, init);
  if (init === undefined) return new LazyRequest(href, 'GET', undefined) as unknown as Request;
  for (const key in init) if (!CHEAP_KEYS.has(key) && (init as Record<string, unknown>)[key] !== undefined) return new NativeRequest(href, init);
  const method = init.method === undefined ? 'GET' : init.method.toUpperCase();
  if (!METHODS_WITHOUT_BODY.has(method)) return new NativeRequest(href, init);
  return new LazyRequest(href, method, init) as unknown as Request;
}
