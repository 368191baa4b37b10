/**
 * A SocketPeer for engine tests without a network: records what the engine sends and how it
 * closes; `connect()` runs an engine's upgrade and returns the peer wired to its session.
 */
import type { Engine } from '../../src/core/engine.js';
import type { SocketPeer, SocketSession } from '../../src/core/socket.js';

export class FakePeer implements SocketPeer {
  readonly sent: string[] = [];
  closed: { code: number; reason: string } | undefined;
  bufferedAmount = 0;
  session!: SocketSession;

  send(data: string | Uint8Array): void {
    if (this.closed) return;
    this.sent.push(typeof data === 'string' ? data : new TextDecoder().decode(data));
  }
  close(code = 1000, reason = ''): void {
    if (this.closed) return;
    this.closed = { code, reason };
    this.session?.close(code, reason);
  }
  terminate(): void {
    this.close(1006, '');
  }
  ping(): boolean {
    return false;
  }
  /** Messages sent so far, parsed. */
  get messages(): any[] {
    return this.sent.map((s) => JSON.parse(s));
  }
  /** The client sends a message (objects as JSON). */
  say(message: unknown): void {
    this.session.message(typeof message === 'string' || message instanceof Uint8Array ? message : JSON.stringify(message));
  }
  /** Waits until `count` messages have arrived (or the socket closed). */
  async waitFor(count: number, timeoutMs = 5000): Promise<any[]> {
    const start = Date.now();
    while (this.sent.length < count && !this.closed) {
      if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${count} messages (got ${this.sent.length})`);
      await new Promise((r) => setTimeout(r, 2));
    }
    return this.messages;
  }
  async waitClosed(timeoutMs = 5000): Promise<{ code: number; reason: string }> {
    const start = Date.now();
    while (!this.closed) {
      if (Date.now() - start > timeoutMs) throw new Error('timed out waiting for close');
      await new Promise((r) => setTimeout(r, 2));
    }
    return this.closed;
  }
}

/** Opens a fake WebSocket on `engine` at `url` (absolute). Throws when the upgrade is refused. */
export async function connect(engine: Engine, url: string, headers: Record<string, string> = {}): Promise<FakePeer> {
  const result = await engine.upgrade!(new Request(url, { headers }));
  if (typeof result !== 'function') throw new Error(`upgrade refused: ${result ? result.status : 'undefined'}`);
  const peer = new FakePeer();
  peer.session = result(peer);
  return peer;
}
