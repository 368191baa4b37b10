/**
 * A Headers for an IncomingMessage that costs nothing until used.
 *
 * `get(name)` and `has(name)` read the header object Node's parser already built. Any other call
 * (`set`, `append`, iteration, `getSetCookie`, …) first builds a real Headers from `rawHeaders`
 * (all values, duplicates kept) and from then on everything goes to it, so mutations are seen by
 * later reads. `instanceof Headers` holds.
 *
 * One difference from a platform Headers built from the same message: for header fields that
 * Node de-duplicates (Content-Type, Authorization, Host, …), `get` returns the first value where
 * a platform Headers would join every value with ", ". Such requests are malformed anyway.
 */
import type { IncomingMessage } from 'node:http';
import { delegateMissing } from '../core/delegate-prototype.js';

const NativeHeaders: typeof Headers = globalThis.Headers;
const kIncoming = Symbol('mockyard.headers.incoming');
const kReal = Symbol('mockyard.headers.real');

class LazyHeaders {
  [kIncoming]: IncomingMessage;
  [kReal]: Headers | undefined = undefined;

  constructor(incoming: IncomingMessage) {
    this[kIncoming] = incoming;
  }

  private get real(): Headers {
    let real = this[kReal];
    if (!real) {
      real = new NativeHeaders();
      const raw = this[kIncoming].rawHeaders;
      for (let i = 0; i < raw.length; i += 2) real.append(raw[i]!, raw[i + 1]!);
      this[kReal] = real;
    }
    return real;
  }

  get(name: string): string | null {
    const real = this[kReal];
    if (real) return real.get(name);
    const v = this[kIncoming].headers[String(name).toLowerCase()];
    if (v === undefined) return null;
    return typeof v === 'string' ? v : v.join(', ');
  }

  has(name: string): boolean {
    const real = this[kReal];
    if (real) return real.has(name);
    return this[kIncoming].headers[String(name).toLowerCase()] !== undefined;
  }
}

// Everything but get/has (set, append, iteration, getSetCookie, …) goes to the real Headers.
delegateMissing(LazyHeaders, NativeHeaders, (h) => (h as unknown as { real: Headers }).real);
Object.setPrototypeOf(LazyHeaders.prototype, NativeHeaders.prototype);

export function createLazyHeaders(incoming: IncomingMessage): Headers {
  return new LazyHeaders(incoming) as unknown as Headers;
}
