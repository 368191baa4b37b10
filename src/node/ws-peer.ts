/**
 * A `ws` WebSocket behind the host-neutral seam (src/core/socket.ts): `SocketPeer` for the engine
 * to talk to the client, and the socket's events forwarded to the engine's `SocketSession`.
 */
import type { RawData, WebSocket } from 'ws';
import type { SocketAccept, SocketPeer, SocketSession } from '../core/socket.js';
import type { Logger } from '../core/logger.js';

const OPEN = 1;

function toBytes(data: RawData): Uint8Array {
  if (Array.isArray(data)) return Buffer.concat(data);
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  return data;
}

function toText(data: RawData): string {
  const bytes = toBytes(data);
  return Buffer.isBuffer(bytes) ? bytes.toString('utf8') : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
}

export function createPeer(ws: WebSocket): SocketPeer {
  return {
    send(data) {
      if (ws.readyState !== OPEN) return;
      ws.send(data, { binary: typeof data !== 'string' });
    },
    close(code, reason) {
      if (ws.readyState >= 2 /* CLOSING */) return;
      try {
        ws.close(code, reason);
      } catch {
        // `ws` refuses codes a peer may not send (1005, 999…) and reasons over 123 bytes:
        // close anyway, with the code alone when it is valid, else without one.
        try {
          ws.close(code);
        } catch {
          ws.close();
        }
      }
    },
    terminate() {
      ws.terminate();
    },
    ping() {
      if (ws.readyState !== OPEN) return true;
      ws.ping();
      return true;
    },
    pause() {
      ws.pause();
    },
    resume() {
      ws.resume();
    },
    get bufferedAmount() {
      return ws.bufferedAmount;
    },
  };
}

/** Calls the engine's `accept` with a peer and forwards every socket event to its session. */
export function bindSession(ws: WebSocket, accept: SocketAccept, logger: Logger): void {
  let session: SocketSession;
  try {
    session = accept(createPeer(ws));
  } catch (err) {
    logger.error(`WebSocket session failed to start: ${err instanceof Error ? err.message : String(err)}`);
    ws.close(1011, 'Internal error');
    return;
  }
  const guard = (what: string, fn: () => void) => {
    try {
      fn();
    } catch (err) {
      logger.error(`WebSocket ${what} handler failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  };
  ws.on('message', (data: RawData, isBinary: boolean) => {
    guard('message', () => session.message(isBinary ? toBytes(data) : toText(data)));
  });
  ws.on('pong', () => {
    if (session.pong) guard('pong', () => session.pong!());
  });
  ws.on('error', (err: Error) => {
    if (session.error) guard('error', () => session.error!(err));
  });
  ws.once('close', (code: number, reason: Buffer) => {
    guard('close', () => session.close(code, reason.toString()));
  });
}
