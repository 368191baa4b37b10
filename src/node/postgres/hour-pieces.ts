/**
 * Deflated hours of the PostgreSQL store's whole-window gzip reads (the dashboard reads the same
 * 1 h / 24 h windows again and again): an hour wholly inside a window is deflated once and
 * reused while its (event count, highest seq) stays the same. Rows are only ever inserted (with
 * seqs never reused) or dropped with their whole day, so an unchanged pair means an unchanged
 * hour, whichever process stored into it. Bounded by compressed bytes (least recently used go).
 */
import type { DeflatedPiece } from '../../tracker/gzip-pieces.js';

export class HourPieces {
  private readonly hours = new Map<number, { n: number; m: string; piece: DeflatedPiece }>();
  private bytes = 0;

  constructor(private readonly maxBytes = 64 * 1024 * 1024) {}

  get(hour: number, n: number, m: string): DeflatedPiece | undefined {
    const hit = this.hours.get(hour);
    if (!hit || hit.n !== n || hit.m !== m) return undefined;
    this.hours.delete(hour);
    this.hours.set(hour, hit);
    return hit.piece;
  }

  set(hour: number, n: number, m: string, piece: DeflatedPiece): void {
    this.drop(hour);
    this.hours.set(hour, { n, m, piece });
    this.bytes += piece.deflatedSize;
    for (const h of this.hours.keys()) {
      if (this.bytes <= this.maxBytes) break;
      this.drop(h);
    }
  }

  private drop(hour: number): void {
    const old = this.hours.get(hour);
    if (!old) return;
    this.bytes -= old.piece.deflatedSize;
    this.hours.delete(hour);
  }
}
