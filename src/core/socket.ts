/**
 * The host-neutral WebSocket seam.
 *
 * An engine never sees `ws` or MSW: a host that receives an upgrade builds a platform Request
 * (URL and headers of the handshake) and asks `engine.upgrade(request)`. The engine answers
 *   - `undefined`: not mine (the host tries the next engine, or leaves the upgrade alone),
 *   - a Response: refuse the handshake with this status (e.g. 401),
 *   - a SocketAccept: the host completes the handshake and calls it once with a SocketPeer; the
 *     returned SocketSession receives the connection's events.
 */
export interface SocketPeer {
  /** Sends a text frame (string) or a binary frame (bytes). No-op once the socket is closed. */
  send(data: string | Uint8Array): void;
  /** Starts a closing handshake. */
  close(code?: number, reason?: string): void;
  /** Drops the connection at once, without a closing handshake. */
  terminate(): void;
  /** Sends a ping frame; returns false when the host has no ping frames (browser). */
  ping(): boolean;
  /**
   * Stops reading from the peer (TCP backpressure) until `resume()`. Optional: hosts that cannot
   * (the browser) leave it out, and sessions fall back to a hard cap on queued input.
   */
  pause?(): void;
  resume?(): void;
  /** Bytes queued but not yet sent (0 when the host cannot tell). */
  readonly bufferedAmount: number;
}

export interface SocketSession {
  /** A message from the peer: text frames as string, binary frames as bytes. */
  message(data: string | Uint8Array): void;
  /** A pong frame arrived (answer to `peer.ping()`). */
  pong?(): void;
  /** The connection ended (either side). Called exactly once. */
  close(code: number, reason: string): void;
  /** A transport error; `close` follows. */
  error?(err: unknown): void;
}

export type SocketAccept = ((peer: SocketPeer) => SocketSession) & {
  /**
   * Largest message the session accepts, in bytes. Hosts that can enforce it while receiving
   * (`ws` maxPayload on Node) refuse a larger frame with close 1009 before buffering it.
   */
  maxMessageBytes?: number;
};

/** Attaches the message limit a host should enforce to an accept function. */
export function withMessageLimit(accept: (peer: SocketPeer) => SocketSession, maxMessageBytes: number): SocketAccept {
  return Object.assign(accept, { maxMessageBytes });
}

export type UpgradeResult = SocketAccept | Response | undefined;
