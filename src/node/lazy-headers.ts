/**
 * A Headers for an IncomingMessage (or a flat `[name, value, …]` header list: the proxy's
 * answers, stream-response.ts) that costs nothing until used.
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

/** Every value of `name` (lower case) in a flat list, joined as Headers.get joins them; null if none. */
function flatLookup(flat: readonly string[], name: string): string | null {
  let out: string | null = null;
  for (let i = 0; i < flat.length; i += 2) {
    const n = flat[i]!;
    if (n.length === name.length && n.toLowerCase() === name) out = out === null ? flat[i + 1]! : `${out}, ${flat[i + 1]!}`;
  }
  return out;
}

class LazyHeaders {
  [kIncoming]: IncomingMessage | readonly string[];
  [kReal]: Headers | undefined = undefined;

  constructor(source: IncomingMessage | readonly string[]) {
    this[kIncoming] = source;
  }

  private get real(): Headers {
    let real = this[kReal];
    if (!real) {
      real = new NativeHeaders();
      const source = this[kIncoming];
      const raw = Array.isArray(source) ? source : (source as IncomingMessage).rawHeaders;
      for (let i = 0; i < raw.length; i += 2) real.append(raw[i]!, raw[i + 1]!);
      this[kReal] = real;
    }
    return real;
  }

  get(name: string): string | null {
    const real = this[kReal];
    if (real) return real.get(name);
    const source = this[kIncoming];
    if (Array.isArray(source)) return flatLookup(source, String(name).toLowerCase());
    const v = (source as IncomingMessage).headers[String(name).toLowerCase()];
    if (v === undefined) return null;
    return typeof v === 'string' ? v : v.join(', ');
  }

  has(name: string): boolean {
    const real = this[kReal];
    if (real) return real.has(name);
    const source = this[kIncoming];
    if (Array.isArray(source)) return flatLookup(source, String(name).toLowerCase()) !== null;
    return (source as IncomingMessage).headers[String(name).toLowerCase()] !== undefined;
  }
}

// Everything but get/has (set, append, iteration, getSetCookie, …) goes to the real Headers.
delegateMissing(LazyHeaders, NativeHeaders, (h) => (h as unknown as { real: Headers }).real);
Object.setPrototypeOf(LazyHeaders.prototype, NativeHeaders.prototype);

export function createLazyHeaders(incoming: IncomingMessage | readonly string[]): Headers {
  return new LazyHeaders(incoming) as unknown as Headers;
}

/**
 * The flat list a lazy Headers still reads from (nobody changed or iterated it), else undefined:
 * read the Headers itself. For hosts that write the list as it is.
 */
export function untouchedFlatHeaders(headers: Headers): readonly string[] | undefined {
  const h = headers as unknown as LazyHeaders;
  const source = h[kIncoming];
  return h[kReal] === undefined && Array.isArray(source) ? source : undefined;
}
