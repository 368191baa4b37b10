/**
 * WebSocket transport (contract sections 1, 3, 5, 6, 8): one connection to `wsEndpoint`.
 *
 * - Opened at start; with a key the first message is `{ type: 'auth', key }` and nothing is sent
 *   before `{ type: 'auth_ok' }` (no answer within `flushTimeout` → the connection is dropped).
 * - `{ type: 'ingest', batchId, events }` → delivered only on `{ type: 'ack' }`. Acks answer
 *   ingests in order on a connection (an ack naming a `batchId` is matched by it). No ack within
 *   `flushTimeout` → the connection is dropped (so a late ack can never be taken for the next
 *   batch's) and the batch is sent again on the next one; the collector's batchId drops replays.
 * - `{ type: 'error', message }` answering an ingest → the batch is refused as it is (split, bad
 *   event isolated), unless the collector says it could not store it (then: retried).
 * - Any close → reconnect after a fixed 3 s; close 1008 (wrong or missing key) → stop, warn once.
 */
import { batchBody, type Batch } from './batch-queue.js';
import type { SendResult, Transport } from './transport.js';
import type { WebSocketFactory, WebSocketLike } from './types.js';

export const RECONNECT_DELAY = 3000;
const OPEN = 1;

interface Waiting {
  batch: Batch;
  settle: (result: SendResult) => void;
}

export interface WsTransportOptions {
  url: string;
  apiKey: () => string | undefined;
  flushTimeout: number;
  WebSocket: WebSocketFactory | undefined;
  /** The connection can take batches (open, authenticated). */
  onReady: () => void;
  /** Close 1008: the collector refused the key. */
  onRefused: (message: string) => void;
  onDown: (message: string) => void;
}

/**
 * Where the connection stands:
 *   connecting      a socket is opening
 *   authenticating  open, `auth` sent; no `auth_ok` within flushTimeout drops the socket
 *   ready           open and authenticated (or no key needed): batches go out
 *   waiting         no socket; the timer reconnects (fixed 3 s)
 *   idle            no socket, no timer: before the first connect, or no WebSocket in this
 *                   environment (`reconnectNow()` tries again)
 *   refused         closed with 1008, the key refused: nothing until `reconnectNow()`
 *   closed          `close()` was called
 */
type Connection =
  | { name: 'connecting' | 'ready'; socket: WebSocketLike }
  | { name: 'authenticating'; socket: WebSocketLike; timer: ReturnType<typeof setTimeout> }
  | { name: 'waiting'; timer: ReturnType<typeof setTimeout> }
  | { name: 'idle' | 'refused' | 'closed' };

const socketOf = (c: Connection): WebSocketLike | undefined => ('socket' in c ? c.socket : undefined);

export class WsTransport implements Transport {
  readonly keepaliveInFlight = 0;
  private connection: Connection = { name: 'idle' };
  private waiting: Waiting[] = [];

  constructor(private readonly o: WsTransportOptions) {
    this.connect();
  }

  get ready(): boolean {
    return this.connection.name === 'ready' && this.connection.socket.readyState === OPEN;
  }

  /** After a refusal (close 1008) or to try at once instead of waiting for the 3 s. */
  reconnectNow(): void {
    const c = this.connection;
    if (c.name === 'closed' || socketOf(c)) return;
    this.enter({ name: 'idle' }); // leaves `waiting` or `refused`: connect() decides
    this.connect();
  }

  /** Moves to `next`, cancelling the timer of the state it leaves. */
  private enter(next: Connection): void {
    const c = this.connection;
    if ((c.name === 'waiting' || c.name === 'authenticating') && c !== next) clearTimeout(c.timer);
    this.connection = next;
  }

  private connect(): void {
    const state = this.connection.name;
    if (state === 'closed' || state === 'refused') return;
    const Ctor = this.o.WebSocket ?? (globalThis.WebSocket as unknown as WebSocketFactory | undefined);
    if (!Ctor) {
      this.enter({ name: 'idle' });
      this.o.onDown('no WebSocket in this environment');
      return;
    }
    let socket: WebSocketLike;
    try {
      socket = new Ctor(this.o.url);
    } catch (err) {
      this.down(`cannot open ${this.o.url}: ${(err as Error)?.message ?? err}`);
      return;
    }
    this.enter({ name: 'connecting', socket });
    socket.onopen = () => {
      if (socketOf(this.connection) !== socket) return;
      const key = this.o.apiKey();
      if (!key) {
        this.enter({ name: 'ready', socket });
        this.o.onReady();
        return;
      }
      socket.send(JSON.stringify({ type: 'auth', key }));
      this.enter({ name: 'authenticating', socket, timer: setTimeout(() => this.drop(socket, 'no auth_ok within flushTimeout'), this.o.flushTimeout) });
    };
    socket.onmessage = (ev) => this.message(socket, ev.data);
    socket.onerror = () => {};
    socket.onclose = (ev) => {
      if (socketOf(this.connection) !== socket) return;
      if (ev.code === 1008) {
        this.enter({ name: 'refused' });
        this.failAll({ kind: 'auth', status: 1008, message: `collector closed the WebSocket with 1008${ev.reason ? `: ${ev.reason}` : ''}` });
        this.o.onRefused(`collector closed the WebSocket with 1008${ev.reason ? `: ${ev.reason}` : ''} (check the apiKey)`);
        return;
      }
      this.down(`WebSocket closed (${ev.code}${ev.reason ? ` ${ev.reason}` : ''})`);
    };
  }

  private message(socket: WebSocketLike, data: unknown): void {
    if (socketOf(this.connection) !== socket || typeof data !== 'string') return;
    let msg: Record<string, unknown>;
    try {
      msg = JSON.parse(data) as Record<string, unknown>;
    } catch {
      return;
    }
    if (!msg || typeof msg !== 'object') return;
    if (msg.type === 'auth_ok') {
      if (this.connection.name === 'authenticating') {
        this.enter({ name: 'ready', socket });
        this.o.onReady();
      }
      return;
    }
    if (msg.type !== 'ack' && !(msg.type === 'error' && msg.reqId === undefined)) return; // push, events:response…
    // An answer naming a batchId settles that batch (none of ours: ignored); otherwise the oldest.
    const at = typeof msg.batchId === 'string' ? this.waiting.findIndex((w) => w.batch.id === msg.batchId) : 0;
    const w = at >= 0 ? this.waiting[at] : undefined;
    if (!w) return;
    if (msg.type === 'ack') return w.settle({ kind: 'ok' });
    const message = typeof msg.message === 'string' ? msg.message : 'error';
    // The collector hides storage failures behind this one message: worth another try.
    if (message === 'Could not store the events') return w.settle({ kind: 'retry', message: `collector: ${message}` });
    const index = /^Invalid event at index (\d+)/.exec(message);
    w.settle(index ? { kind: 'reject', status: 422, message: `collector: ${message}`, index: Number(index[1]) } : { kind: 'reject', status: 400, message: `collector: ${message}` });
  }

  send(batch: Batch): Promise<SendResult> {
    const socket = socketOf(this.connection);
    if (!socket || !this.ready) return Promise.resolve({ kind: 'retry', message: 'WebSocket not connected' });
    return new Promise<SendResult>((resolve) => {
      const timer = setTimeout(() => {
        settle({ kind: 'retry', message: `no ack within flushTimeout (${this.o.flushTimeout} ms)` });
        this.drop(socket, 'no ack within flushTimeout');
      }, this.o.flushTimeout);
      const settle = (result: SendResult) => {
        clearTimeout(timer);
        const i = this.waiting.indexOf(entry);
        if (i >= 0) this.waiting.splice(i, 1);
        resolve(result);
      };
      const entry: Waiting = { batch, settle };
      this.waiting.push(entry);
      try {
        socket.send(batchBody(batch));
      } catch (err) {
        settle({ kind: 'retry', message: `WebSocket send failed: ${(err as Error)?.message ?? err}` });
      }
    });
  }

  /** Gives up on a connection that stopped answering: close it, forget it, reconnect in 3 s. */
  private drop(socket: WebSocketLike, why: string): void {
    if (socketOf(this.connection) !== socket) return;
    socket.onclose = socket.onmessage = socket.onopen = null;
    try {
      socket.close(4000, why);
    } catch {
      // already closing
    }
    this.down(why);
  }

  /** The connection is lost (or could not be made): batches out are retried, reconnect in 3 s. */
  private down(message: string): void {
    if (this.connection.name === 'closed') {
      this.failAll({ kind: 'retry', message });
      return;
    }
    this.enter({ name: 'waiting', timer: setTimeout(() => this.connect(), RECONNECT_DELAY) });
    this.failAll({ kind: 'retry', message });
    this.o.onDown(message);
  }

  private failAll(result: SendResult): void {
    for (const w of this.waiting.splice(0)) w.settle(result);
  }

  close(): void {
    const socket = socketOf(this.connection);
    this.enter({ name: 'closed' });
    this.failAll({ kind: 'retry', message: 'tracker stopped' });
    if (socket) {
      socket.onclose = socket.onmessage = socket.onopen = null;
      try {
        socket.close(1000, 'tracker stopped');
      } catch {
        // already closing
      }
    }
  }
}
