/**
 * HTTP transport: one `fetch` POST per batch (`{ type: 'ingest', batchId, events }`), gzip through
 * CompressionStream when available, `X-Tracker-Key` when a key is set, `keepalive: true` whenever
 * the body fits what is left of the page's 64 KiB keepalive budget (such a request survives the
 * page's unload), aborted after `flushTimeout` without an answer.
 */
import { retryAfterMs } from './backoff.js';
import { batchBody, type Batch } from './batch-queue.js';
import { KEEPALIVE_BUDGET } from './options.js';
import { describeError, type SendResult, type Transport } from './transport.js';

const encoder = new TextEncoder();

async function gzip(text: string): Promise<Uint8Array> {
  const stream = new Blob([encoder.encode(text) as BlobPart]).stream().pipeThrough(new CompressionStream('gzip'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** UTF-8 bytes of a batch's body (the envelope is ASCII). */
export function bodyBytes(batch: Batch): number {
  return batch.bytes + `{"type":"ingest","batchId":${JSON.stringify(batch.id)},"events":[]}`.length;
}

export interface HttpTransportOptions {
  endpoint: string;
  apiKey: () => string | undefined;
  compress: boolean;
  flushTimeout: number;
  fetch: typeof fetch;
}

export class HttpTransport implements Transport {
  readonly ready = true;
  keepaliveInFlight = 0;
  private compress: boolean;

  constructor(private readonly o: HttpTransportOptions) {
    this.compress = o.compress;
  }

  async send(batch: Batch): Promise<SendResult> {
    const json = batchBody(batch);
    const headers: Record<string, string> = { 'Content-Type': 'application/json' };
    const key = this.o.apiKey();
    if (key) headers['X-Tracker-Key'] = key;
    let body: string | Uint8Array = json;
    let size = bodyBytes(batch);
    if (this.compress) {
      try {
        body = await gzip(json);
        size = body.byteLength;
        headers['Content-Encoding'] = 'gzip';
      } catch {
        body = json; // CompressionStream failed: plain JSON is always accepted
      }
    }
    const keepalive = size <= KEEPALIVE_BUDGET - this.keepaliveInFlight;
    if (keepalive) {
      this.keepaliveInFlight += size;
      batch.keepaliveBytes = size;
    }
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, this.o.flushTimeout);
    try {
      const res = await this.o.fetch(this.o.endpoint, { method: 'POST', headers, body: body as BodyInit, keepalive, signal: controller.signal });
      if (res.ok) {
        void res.body?.cancel().catch(() => {});
        return { kind: 'ok' };
      }
      const text = await res.text().catch(() => '');
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = undefined;
      }
      const { message, index } = describeError(parsed, `HTTP ${res.status}`);
      const detail = `collector answered ${res.status}: ${message}`;
      if (res.status === 401 || res.status === 403) return { kind: 'auth', status: res.status, message: detail };
      if (res.status === 400 || res.status === 413 || res.status === 422) {
        return index === undefined ? { kind: 'reject', status: res.status, message: detail } : { kind: 'reject', status: res.status, message: detail, index };
      }
      if (res.status === 415 && this.compress) this.compress = false; // a collector without gzip: plain JSON from now on
      const after = retryAfterMs(res.headers.get('retry-after'), Date.now());
      // 404, 405, 415…: most likely a wrong writeEndpoint; retried (with backoff) in case it is being deployed.
      const misconfigured = res.status < 500 && res.status !== 408 && res.status !== 429;
      return { kind: 'retry', message: detail, ...(after === undefined ? {} : { retryAfterMs: after }), ...(misconfigured ? { misconfigured } : {}) };
    } catch (err) {
      return { kind: 'retry', message: timedOut ? `no answer within flushTimeout (${this.o.flushTimeout} ms)` : `network error: ${(err as Error)?.message ?? err}` };
    } finally {
      clearTimeout(timer);
      if (keepalive) {
        this.keepaliveInFlight -= size;
        batch.keepaliveBytes = 0;
      }
    }
  }

  close(): void {}
}
