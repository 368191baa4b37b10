/**
 * One WebSocket client of a handler: the `conn` object handed to onConnect / onMessage /
 * onClose / onError, and the SocketSession the host feeds with the socket's events.
 *
 * Callbacks run in order per connection: a message waits for an async onConnect (or an earlier
 * async onMessage) to finish, and onClose comes last. A callback that throws or rejects goes to
 * the handler's onError (or the log); the connection stays open.
 */
import type { Logger } from '../../core/logger.js';
import type { SocketPeer, SocketSession } from '../../core/socket.js';
import type { MockApiApp, WsConnection, WsHandler } from '../types.js';
import { decodeFrame, encodeFrame } from './frames.js';
import { Heartbeat } from './heartbeat.js';
import type { Hub } from './hub.js';

let counter = 0;
function newId(): string {
  const c = globalThis.crypto as Crypto | undefined;
  return typeof c?.randomUUID === 'function' ? c.randomUUID() : `ws-${Date.now().toString(36)}-${(++counter).toString(36)}`;
}

export interface ConnectionInit {
  params: Record<string, string>;
  query: Record<string, string | string[]>;
  headers: Headers;
  path: string;
  app: MockApiApp;
  /** Deepest JSON nesting parsed from a text frame (deeper text arrives as the string). */
  maxJsonDepth: number;
}

export class Connection implements WsConnection {
  readonly id = newId();
  readonly params: Record<string, string>;
  readonly query: Record<string, string | string[]>;
  readonly headers: Headers;
  /** URL path the client connected to. */
  readonly path: string;
  readonly app: MockApiApp;
  data: Record<string, unknown> = {};
  closed = false;
  private chain: Promise<void> | undefined;
  private readonly maxJsonDepth: number;
  private heartbeat: Heartbeat | undefined;

  constructor(
    private readonly peer: SocketPeer,
    private readonly handler: WsHandler,
    private readonly hub: Hub<Connection>,
    private readonly logger: Logger,
    init: ConnectionInit,
  ) {
    this.params = init.params;
    this.query = init.query;
    this.headers = init.headers;
    this.path = init.path;
    this.app = init.app;
    this.maxJsonDepth = init.maxJsonDepth;
  }

  get rooms(): ReadonlySet<string> {
    return this.hub.roomsOf(this);
  }

  /** Sends one already-encoded frame (hub broadcasts). */
  sendFrame(frame: string | Uint8Array): void {
    if (!this.closed) this.peer.send(frame);
  }

  send(data: unknown): void {
    const frame = encodeFrame(data);
    if (frame !== undefined) this.sendFrame(frame);
  }

  broadcast(data: unknown, options: { includeSelf?: boolean; room?: string } = {}): void {
    this.hub.broadcast(data, options.room, options.includeSelf ? undefined : this);
  }

  join(room: string): void {
    if (!this.closed) this.hub.join(this, room);
  }

  leave(room: string): void {
    this.hub.leave(this, room);
  }

  close(code?: number, reason?: string): void {
    this.peer.close(code, reason);
  }

  /** Engine shutdown: stops the heartbeat and starts the closing handshake. */
  shutdown(): void {
    this.heartbeat?.stop();
    this.peer.close(1001, 'Server shutting down');
  }

  /** Drops the connection without a closing handshake. */
  terminate(): void {
    this.peer.terminate();
  }

  /** Runs a user callback after the previous ones; errors go to onError. */
  private enqueue(label: string, fn: () => unknown): void {
    const run = (): void | Promise<void> => {
      try {
        const r = fn();
        if (r && typeof (r as PromiseLike<unknown>).then === 'function') return Promise.resolve(r).then(() => {}, (err) => this.fail(label, err));
      } catch (err) {
        this.fail(label, err);
      }
    };
    const track = (p: Promise<void>) => {
      this.chain = p;
      // Back to the synchronous path once everything queued has run.
      void p.then(() => {
        if (this.chain === p) this.chain = undefined;
      });
    };
    if (this.chain) track(this.chain.then(run));
    else {
      const r = run();
      if (r) track(r);
    }
  }

  private fail(label: string, err: unknown): void {
    if (this.handler.onError) {
      try {
        const r = this.handler.onError(this, err);
        if (r && typeof (r as PromiseLike<unknown>).then === 'function') {
          Promise.resolve(r).catch((e) => this.logger.error(`WebSocket ${this.handler.pattern}: onError failed: ${(e as Error)?.message ?? e}`, e));
        }
      } catch (e) {
        this.logger.error(`WebSocket ${this.handler.pattern}: onError failed: ${(e as Error)?.message ?? e}`, e);
      }
      return;
    }
    this.logger.error(`WebSocket ${this.handler.pattern}: ${label} failed: ${(err as Error)?.message ?? err}`, err);
  }

  /** Starts the connection: joins the hub, heartbeat, onConnect. Returns the host's session. */
  open(heartbeatMs: number): SocketSession {
    this.hub.add(this);
    if (heartbeatMs > 0) this.heartbeat = new Heartbeat(this.peer, heartbeatMs, () => this.logger.debug(`WebSocket ${this.path}: client ${this.id} missed two pongs; terminated`));
    const { handler } = this;
    if (handler.onConnect) this.enqueue('onConnect', () => handler.onConnect!(this));
    return {
      message: (data) => {
        if (this.closed) return;
        const msg = decodeFrame(data, this.maxJsonDepth);
        if (handler.onMessage) this.enqueue('onMessage', () => handler.onMessage!(this, msg));
      },
      pong: () => this.heartbeat?.pong(),
      error: (err) => {
        this.enqueue('socket', () => {
          throw err;
        });
      },
      close: (code, reason) => {
        if (this.closed) return;
        this.closed = true;
        this.heartbeat?.stop();
        this.hub.remove(this);
        if (handler.onClose) this.enqueue('onClose', () => handler.onClose!(this, code, reason));
      },
    };
  }
}
