/**
 * Heartbeat for one connection: every `interval` ms a ping frame; a peer that has not answered
 * the last two pings is terminated (no closing handshake). Hosts without ping frames (the
 * browser) make `ping()` return false, which stops the heartbeat.
 */
import type { SocketPeer } from '../../core/socket.js';

export class Heartbeat {
  private missed = 0;
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(private readonly peer: SocketPeer, interval: number, private readonly onDead: () => void) {
    if (interval > 0) this.timer = setInterval(() => this.tick(), interval);
  }

  private tick(): void {
    if (this.missed >= 2) {
      this.stop();
      this.onDead();
      this.peer.terminate();
      return;
    }
    if (!this.peer.ping()) {
      this.stop();
      return;
    }
    this.missed++;
  }

  pong(): void {
    this.missed = 0;
  }

  stop(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }
}
