/**
 * The collector's WebSocket protocol (spec section 6), on the host-neutral socket seam.
 *
 *  - With an apiKey the first message must be `{ type: 'auth', key }` → `{ type: 'auth_ok' }`;
 *    any other first message, a wrong key, or no auth within `wsAuthTimeoutMs` → close 1008.
 *  - `{ type: 'ingest', events, batchId? }` → `{ type: 'ack', saved }`; an invalid batch →
 *    `{ type: 'error', message }` and the connection stays open. A message may hold more than
 *    `maxEvents` events: the collector stores it as consecutive batches (collector.ts).
 *  - `{ type: 'events:query', reqId, query: { since, until, limit?, page?, cursor? } }` →
 *    `{ type: 'events:response', reqId, response: { events, total, page, limit } }`.
 *  - After every stored batch (HTTP or WebSocket) `{ type: 'push', events }` goes to every other
 *    authenticated client. A client that does not read its pushes (more than 16 MiB queued) is
 *    closed with 1013 so it reconnects and re-queries instead of exhausting memory.
 *  - Messages larger than `maxWsMessageBytes` → close 1009; malformed JSON → an error message.
 * Messages of one connection are handled in order (acks come back in ingest order).
 */
import { toHttpError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import type { SocketPeer, SocketSession } from '../core/socket.js';
import { parseReadQuery, type ReadQuery } from './read-query.js';

/** What the collector's pushes and shutdown need from a client (a TrackerSocket, or a stand-in). */
export interface PushTarget {
  readonly authenticated: boolean;
  send(text: string): void;
  shutdown(): void;
}

export interface SocketContext {
  requiresAuth: boolean;
  checkKey(key: string | null | undefined): boolean;
  maxMessageBytes: number;
  authTimeoutMs: number;
  logger: Logger;
  /** Validates and stores an ingest message; resolves with the number stored. Pushes to others. */
  ingest(message: unknown, from: TrackerSocket): Promise<number>;
  /** The events:response `response` JSON for a parsed query. */
  select(query: ReadQuery): Promise<string>;
  sockets: Set<PushTarget>;
}

const MAX_BUFFERED = 16 * 1024 * 1024;
/**
 * Input queued but not yet handled (a client flooding ingests faster than storage takes them):
 * above PAUSE_AT the session asks the host to stop reading (TCP backpressure), below RESUME_AT it
 * reads again; past MAX_QUEUED (hosts that cannot pause) the client is closed with 1013.
 */
const PAUSE_AT = 4 * 1024 * 1024;
const RESUME_AT = 1024 * 1024;
const MAX_QUEUED = 64 * 1024 * 1024;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

function byteLength(data: string | Uint8Array, limit: number): number {
  if (typeof data !== 'string') return data.byteLength;
  if (data.length > limit || data.length * 3 <= limit) return data.length; // cheap bounds: 1..3 bytes per UTF-16 unit
  return encoder.encode(data).byteLength;
}

export class TrackerSocket implements SocketSession {
  authenticated: boolean;
  private closed = false;
  private chain: Promise<void> = Promise.resolve();
  /** UTF-16 units of messages received and not yet handled. */
  private queued = 0;
  private paused = false;
  private authTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly peer: SocketPeer, private readonly ctx: SocketContext) {
    this.authenticated = !ctx.requiresAuth;
    ctx.sockets.add(this);
    if (ctx.requiresAuth) {
      this.authTimer = setTimeout(() => this.fail(1008, 'Authentication timeout'), ctx.authTimeoutMs);
      (this.authTimer as { unref?: () => void }).unref?.();
    }
  }

  /** Sends a JSON text unless the peer has stopped reading. */
  send(text: string): void {
    if (this.closed) return;
    if (this.peer.bufferedAmount > MAX_BUFFERED) {
      this.fail(1013, 'Too many unread messages');
      return;
    }
    this.peer.send(text);
  }

  private fail(code: number, reason: string): void {
    if (this.closed) return;
    this.forget();
    this.peer.close(code, reason);
  }

  private forget(): void {
    this.closed = true;
    this.authenticated = false;
    if (this.authTimer) clearTimeout(this.authTimer);
    this.ctx.sockets.delete(this);
  }

  message(data: string | Uint8Array): void {
    if (this.closed) return;
    if (byteLength(data, this.ctx.maxMessageBytes) > this.ctx.maxMessageBytes) {
      this.fail(1009, `Message larger than ${this.ctx.maxMessageBytes} bytes`);
      return;
    }
    const text = typeof data === 'string' ? data : decoder.decode(data);
    this.queued += text.length;
    if (this.queued > MAX_QUEUED) {
      this.fail(1013, 'Too many messages waiting: slow down');
      return;
    }
    if (this.queued > PAUSE_AT && !this.paused && this.peer.pause) {
      this.paused = true;
      this.peer.pause();
    }
    this.chain = this.chain
      .then(() => this.process(text))
      .catch((err: unknown) => {
        this.ctx.logger.error(`tracker: WebSocket message failed: ${(err as Error)?.message ?? err}`);
      })
      .finally(() => {
        this.queued -= text.length;
        if (this.paused && this.queued < RESUME_AT && !this.closed) {
          this.paused = false;
          this.peer.resume?.();
        }
      });
  }

  private async process(text: string): Promise<void> {
    if (this.closed) return;
    let msg: unknown;
    try {
      msg = JSON.parse(text);
    } catch {
      msg = undefined;
    }
    const obj = msg && typeof msg === 'object' && !Array.isArray(msg) ? (msg as Record<string, unknown>) : undefined;
    const type = obj?.type;

    if (!this.authenticated) {
      if (type === 'auth' && this.ctx.checkKey(typeof obj?.key === 'string' ? obj.key : null)) {
        this.authenticated = true;
        if (this.authTimer) clearTimeout(this.authTimer);
        this.send('{"type":"auth_ok"}');
      } else {
        this.fail(1008, type === 'auth' ? 'Invalid key' : 'Authentication required');
      }
      return;
    }
    if (!obj) {
      this.sendError('Malformed message: expected a JSON object with a "type"');
      return;
    }
    switch (type) {
      case 'auth':
        if (this.ctx.checkKey(typeof obj.key === 'string' ? obj.key : null)) this.send('{"type":"auth_ok"}');
        else this.fail(1008, 'Invalid key');
        return;
      case 'ingest':
        try {
          const saved = await this.ctx.ingest(obj, this);
          this.send(`{"type":"ack","saved":${saved}}`);
        } catch (err) {
          // Every server-side failure (store unreachable, spool full) is this one message, which
          // the tracker client retries; 4xx messages say what is wrong with the batch.
          const e = toHttpError(err);
          this.sendError(e.expose && e.status < 500 ? e.message : 'Could not store the events');
        }
        return;
      case 'events:query': {
        const reqId = obj.reqId;
        if (typeof reqId !== 'string' || reqId === '') {
          this.sendError('events:query needs a non-empty string "reqId"');
          return;
        }
        const query = obj.query && typeof obj.query === 'object' && !Array.isArray(obj.query) ? (obj.query as Record<string, unknown>) : {};
        try {
          // The HTTP read's parameters; non-string values as JSON text (so they fail as on HTTP).
          const q = parseReadQuery((name) => {
            const v = query[name];
            return typeof v === 'string' || typeof v === 'number' ? v : v === undefined || v === null ? undefined : JSON.stringify(v);
          });
          const response = await this.ctx.select(q);
          this.send(`{"type":"events:response","reqId":${JSON.stringify(reqId)},"response":${response}}`);
        } catch (err) {
          this.sendError(toHttpError(err).expose ? (err as Error).message : 'Query failed', reqId);
        }
        return;
      }
      default:
        this.sendError(`Unknown message type ${JSON.stringify(type) ?? 'undefined'} (expected ingest or events:query)`);
    }
  }

  private sendError(message: string, reqId?: string): void {
    this.send(JSON.stringify(reqId === undefined ? { type: 'error', message } : { type: 'error', reqId, message }));
  }

  close(): void {
    this.forget();
  }

  error(err: unknown): void {
    this.ctx.logger.debug(`tracker: WebSocket error: ${(err as Error)?.message ?? err}`);
  }

  /** Ends the connection from the server side (collector shutdown). */
  shutdown(): void {
    this.fail(1001, 'Collector closing');
  }
}
