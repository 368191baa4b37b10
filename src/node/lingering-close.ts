/**
 * Lingering close, as nginx does it: when the server answers before it has read everything the
 * client sends (a 413 while a large body is still arriving, a 431 while headers still arrive),
 * closing the socket with unread input makes the kernel send a reset, and a reset can destroy the
 * answer in the client's receive buffer before the client reads it (the client sees EPIPE or
 * ECONNRESET instead of the 413). So after the answer the server only half-closes (FIN after the
 * answer's bytes) and keeps reading and discarding what still arrives, until the client closes
 * its side, or a bound is reached, and only then destroys the socket:
 *
 *   - LINGER.totalMs  at most this long after the answer (nginx: lingering_time, 30 s);
 *   - LINGER.idleMs   at most this long without any data (nginx: lingering_timeout, 5 s);
 *   - LINGER.bytes    at most this much discarded after the body was abandoned.
 *
 * Memory stays flat whatever the client sends: discarded bytes are counted, never kept.
 * Two entry points: `abandonBody(incoming)` for an HTTP request whose body the host stops
 * reading (the response writer then asks for `Connection: close`, and Node's end-of-response
 * close becomes this lingering close), and `endAndLinger(socket, bytes)` for a raw answer written
 * on the socket (parser errors, see client-error.ts).
 */
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';

export const LINGER = {
  totalMs: 10_000,
  idleMs: 2_000,
  bytes: 64 * 1024 * 1024,
} as const;

interface Linger {
  /** Bytes discarded so far. */
  discarded: number;
  /** When data last arrived (ms, performance.now()). */
  lastData: number;
  /** Set once the answer is out and the socket half-closed. */
  started: boolean;
  total?: ReturnType<typeof setTimeout>;
  idle?: ReturnType<typeof setTimeout>;
}

const lingering = new WeakMap<Socket, Linger>();

function stop(socket: Socket, state: Linger): void {
  if (state.total) clearTimeout(state.total);
  if (state.idle) clearTimeout(state.idle);
  state.total = state.idle = undefined;
  if (!socket.destroyed) socket.destroy();
}

/** One idle timer per socket, re-armed for the rest of the period when data came meanwhile. */
function armIdle(socket: Socket, state: Linger, ms: number = LINGER.idleMs): void {
  state.idle = setTimeout(() => {
    const quiet = performance.now() - state.lastData;
    if (quiet >= LINGER.idleMs) stop(socket, state);
    else armIdle(socket, state, LINGER.idleMs - quiet);
  }, ms);
  state.idle.unref();
}

/** Counts `n` discarded bytes; past the bound the socket is destroyed. */
function discard(socket: Socket, state: Linger, n: number): void {
  state.discarded += n;
  state.lastData = performance.now();
  if (state.discarded > LINGER.bytes) stop(socket, state);
}

function stateFor(socket: Socket): Linger {
  let state = lingering.get(socket);
  if (state === undefined) {
    state = { discarded: 0, lastData: 0, started: false };
    lingering.set(socket, state);
    const s = state;
    socket.once('close', () => {
      if (s.total) clearTimeout(s.total);
      if (s.idle) clearTimeout(s.idle);
    });
  }
  return state;
}

/** Half-closes now (after what is queued) and starts the bounds. */
function start(socket: Socket, state: Linger, last?: Uint8Array): void {
  if (state.started || socket.destroyed) return;
  state.started = true;
  if (socket.writable) {
    if (last) socket.end(last);
    else socket.end();
  }
  state.total = setTimeout(() => stop(socket, state), LINGER.totalMs);
  state.total.unref();
  state.lastData = performance.now();
  armIdle(socket, state);
}

/**
 * Set on the IncomingMessage when the host stopped reading its body early (413, cancelled
 * stream): the response writer then asks for `Connection: close`, so the unread rest of the
 * body never reaches a next request on the same connection.
 */
export const kAbandoned = Symbol.for('mockyard.node.bodyAbandoned');

/**
 * THE way the node host stops reading a request body (413, a cancelled stream): marks it
 * abandoned (the writer closes the connection after the answer) and lingers (see the top).
 */
export function abandonBody(incoming: IncomingMessage): void {
  (incoming as IncomingMessage & { [kAbandoned]?: boolean })[kAbandoned] = true;
  lingerAfterResponse(incoming);
}

/**
 * For a request whose body the host stopped reading: the rest is read and discarded from now on
 * (counted against the bound), and when Node closes the connection after the response (the
 * writer sent `Connection: close`), it half-closes and lingers instead of destroying at once.
 */
function lingerAfterResponse(incoming: IncomingMessage): void {
  const socket = incoming.socket as (Socket & { destroySoon?: () => void }) | null;
  if (!socket || socket.destroyed || lingering.has(socket)) return;
  if (typeof socket.destroySoon !== 'function') {
    // not a plain HTTP/1 connection (an HTTP/2 stream under a dev server): the stream is closed
    // on its own, nothing to linger on; stop reading as before
    incoming.pause();
    return;
  }
  const state = stateFor(socket);
  incoming.on('data', (chunk: Buffer) => discard(socket, state, chunk.length));
  incoming.resume();
  // Node's ServerResponse ends a `Connection: close` response with socket.destroySoon() (end,
  // then destroy once written): here the destroy waits for the client, within the bounds.
  socket.destroySoon = () => start(socket, state);
}

/**
 * Writes `bytes` (a complete raw HTTP answer), half-closes and lingers. Called again for the same
 * socket (more input after a parser error reaches the error handler again), it only counts the
 * input and returns false.
 */
export function endAndLinger(socket: Socket, bytes: Uint8Array | undefined, input = 0): boolean {
  const state = lingering.get(socket);
  if (state !== undefined) {
    discard(socket, state, input);
    return false;
  }
  start(socket, stateFor(socket), bytes);
  return true;
}

/** Whether `socket` is lingering (or set to linger). */
export function isLingering(socket: Socket): boolean {
  return lingering.has(socket);
}
