/**
 * The clients of one WebSocket handler and their rooms. Broadcasts encode the payload once.
 */
import { encodeFrame } from './frames.js';

export interface HubMember {
  send(frame: string | Uint8Array): void;
}

export class Hub<M extends HubMember> {
  readonly clients = new Set<M>();
  private readonly rooms = new Map<string, Set<M>>();

  add(member: M): void {
    this.clients.add(member);
  }

  remove(member: M): void {
    this.clients.delete(member);
    for (const [name, set] of this.rooms) {
      if (set.delete(member) && set.size === 0) this.rooms.delete(name);
    }
  }

  join(member: M, room: string): void {
    let set = this.rooms.get(room);
    if (!set) this.rooms.set(room, (set = new Set()));
    set.add(member);
  }

  leave(member: M, room: string): void {
    const set = this.rooms.get(room);
    if (set?.delete(member) && set.size === 0) this.rooms.delete(room);
  }

  roomsOf(member: M): Set<string> {
    const out = new Set<string>();
    for (const [name, set] of this.rooms) if (set.has(member)) out.add(name);
    return out;
  }

  /** How many clients are connected (in `room`, when given). */
  size(room?: string): number {
    return room === undefined ? this.clients.size : (this.rooms.get(room)?.size ?? 0);
  }

  /** Sends to every client (or every client of `room`) except `exclude`; returns the count. */
  broadcast(data: unknown, room?: string, exclude?: M): number {
    const frame = encodeFrame(data);
    if (frame === undefined) return 0;
    const targets = room === undefined ? this.clients : this.rooms.get(room);
    if (!targets) return 0;
    let n = 0;
    for (const m of targets) {
      if (m === exclude) continue;
      m.send(frame);
      n++;
    }
    return n;
  }
}
