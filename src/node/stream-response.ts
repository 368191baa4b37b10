/**
 * A Response whose body is a Node stream (the proxy's Node transport, upstream-undici.ts: the
 * target's body, or the zlib stream decoding it), built for almost nothing.
 *
 * Like FastResponse (core/fast-response.ts) it *is* a Response for every caller (`instanceof
 * Response` holds). `status`, `statusText`, `ok` read the plain state; `headers` is a lazy
 * Headers over the flat list (lazy-headers.ts; once changed or iterated, it is what the host
 * writes); `body` is a
 * WHATWG stream built on first read that starts taking bytes from the Node stream only when
 * someone reads it (highWaterMark 0). Every other member (text(), clone(), …) is answered by a
 * native Response built around those two.
 *
 * The node host asks `streamState()`: as long as nobody has read the WHATWG body, it writes the
 * head and pipes the Node stream straight into the ServerResponse (write-response.ts), so an
 * observer that only looks at `headers` or `body === null` (the devtools journal) costs no copy.
 */
import type { Readable } from 'node:stream';
import { delegateMissing } from '../core/delegate-prototype.js';
import { kWithHeaders, setHeaders, type FastHeaders } from '../core/fast-response.js';
import { createLazyHeaders, untouchedFlatHeaders } from './lazy-headers.js';

const NativeResponse: typeof Response = globalThis.Response;
const kState = Symbol('mockyard.node.streamResponse.state');
const kHeaders = Symbol('mockyard.node.streamResponse.headers');
const kBody = Symbol('mockyard.node.streamResponse.body');
const kNative = Symbol('mockyard.node.streamResponse.native');
const kTaken = Symbol('mockyard.node.streamResponse.taken');

export interface StreamState {
  status: number;
  statusText: string;
  /** Flat `[name, value, …]` (every Set-Cookie its own entry), as `writeHead` takes them. */
  headers: string[];
  /** The body, or null (HEAD, 204, 304). */
  source: Readable | null;
}

/** A WHATWG stream over a Node stream that pulls nothing until read; `onPull` runs on the first read. */
function lazyWebStream(source: Readable, onPull: () => void): ReadableStream<Uint8Array> {
  let started = false;
  let ended = false;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (!started) {
        started = true;
        onPull();
        source.on('end', () => {
          ended = true;
          controller.close();
        });
        source.on('error', (err) => {
          if (!ended) controller.error(err);
          ended = true;
        });
      }
      return new Promise<void>((resolve) => {
        const chunk = source.read() as Buffer | null;
        if (chunk !== null) {
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          resolve();
          return;
        }
        if (ended) return resolve();
        const again = () => {
          source.off('readable', again);
          source.off('end', again);
          source.off('error', again);
          const next = source.read() as Buffer | null;
          if (next !== null) controller.enqueue(new Uint8Array(next.buffer, next.byteOffset, next.byteLength));
          resolve();
        };
        source.on('readable', again);
        source.on('end', again);
        source.on('error', again);
      });
    },
    cancel(reason) {
      ended = true;
      source.destroy(reason instanceof Error ? reason : undefined);
    },
  }, { highWaterMark: 0 });
}

class StreamResponse {
  [kState]: StreamState;
  [kHeaders]: Headers | undefined = undefined;
  [kBody]: ReadableStream<Uint8Array> | null | undefined = undefined;
  [kNative]: Response | undefined = undefined;
  /** The Node stream was read by someone else (the WHATWG body): the host can no longer pipe it. */
  [kTaken] = false;

  constructor(state: StreamState) {
    this[kState] = state;
  }

  private get native(): Response {
    let native = this[kNative];
    if (!native) {
      const s = this[kState];
      native = new NativeResponse(this.body, { status: s.status, statusText: s.statusText, headers: this.headers });
      this[kNative] = native;
      this[kTaken] = true;
    }
    return native;
  }

  get status(): number { return this[kState].status; }
  get statusText(): string { return this[kState].statusText; }
  get ok(): boolean { const s = this[kState].status; return s >= 200 && s < 300; }

  get headers(): Headers {
    return (this[kHeaders] ??= createLazyHeaders(this[kState].headers));
  }

  get body(): ReadableStream<Uint8Array> | null {
    let body = this[kBody];
    if (body === undefined) {
      const source = this[kState].source;
      body = source ? lazyWebStream(source, () => { this[kTaken] = true; }) : null;
      this[kBody] = body;
    }
    return body;
  }

  get bodyUsed(): boolean {
    return this[kNative]?.bodyUsed ?? (this[kTaken] || this[kBody]?.locked === true);
  }

  /**
   * core/fast-response.ts `withHeaders` (CORS): the same answer with `extra` set (replacing
   * headers of the same name, `Vary` added to), its Node stream still piped by the host. Once someone has read
   * the body or changed the headers, the platform way (a rebuilt Response) is used.
   */
  [kWithHeaders](extra: FastHeaders): Response {
    const state = streamState(this as unknown as Response);
    if (state === undefined || this[kBody] !== undefined) {
      const headers = new Headers(this.headers);
      setHeaders(headers, extra);
      return new NativeResponse(this.body, { status: this.status, statusText: this.statusText, headers });
    }
    // `Vary` is a list: the answer's own entries stay beside the new ones.
    const names = Object.keys(extra).map((k) => k.toLowerCase()).filter((k) => k !== 'vary');
    const headers: string[] = [];
    for (let i = 0; i < state.headers.length; i += 2) {
      if (!names.includes(state.headers[i]!.toLowerCase())) headers.push(state.headers[i]!, state.headers[i + 1]!);
    }
    for (const [k, v] of Object.entries(extra)) headers.push(k, v);
    this[kTaken] = true; // the new answer owns the stream
    return new StreamResponse({ ...state, headers }) as unknown as Response;
  }
}

delegateMissing(StreamResponse, NativeResponse, (r) => (r as unknown as { native: Response }).native);
Object.setPrototypeOf(StreamResponse.prototype, NativeResponse.prototype);

export function streamResponse(state: StreamState): Response {
  return new StreamResponse(state) as unknown as Response;
}

/**
 * What the host writes for a StreamResponse whose Node stream nobody has read (headers: the
 * Headers object when someone read it, so changes count), else undefined (write it as any
 * Response).
 */
export function streamState(response: Response): StreamState | undefined {
  const r = response as unknown as StreamResponse;
  const state = r[kState];
  if (state === undefined || r[kTaken] || r[kBody]?.locked === true) return undefined;
  const headers = r[kHeaders];
  if (headers === undefined || untouchedFlatHeaders(headers) !== undefined) return state;
  const flat: string[] = [];
  for (const [name, value] of headers) flat.push(name, value);
  return { ...state, headers: flat };
}
