/**
 * Turns a Selection into the read response body without re-serialising events: the stored JSON
 * lines are joined as they are.
 *
 * Gzip (level 1; the runtime's native deflater, else fflate loaded on demand): the body is deflated
 * in pieces (gzip-pieces.ts). An hour
 * whose events are all in the selection is deflated once and kept until that hour changes
 * (store.version), so repeated dashboard reads of a day mostly copy ready bytes and only deflate
 * the partial hours at the window's edges. Text is fed to the deflater in slices of ~64 KiB, so
 * a read holds the compressed response plus one slice, never the whole uncompressed JSON.
 * `scheduleWarm()` fills the cache in the background with hours that stopped changing.
 *
 * The collector imports this module on demand, only when its reads are gzipped
 * (`readCompression: 'gzip'`, the default), so a browser page whose collector answers plain JSON
 * never fetches it (nor gzip-pieces.ts, nor accept-encoding.ts).
 */
import type { VfsEventStore } from './event-store.js';
import { HOUR_MS, hourOf, lowerBoundOf, type Entry } from './time-index.js';
import { GzipAssembler, PieceDeflater, type DeflatedPiece, type GzipCodecs } from './gzip-pieces.js';
import type { Selection } from './read-query.js';
import { joinLines, trailerOf } from './selection-json.js';

export { acceptsGzip } from './accept-encoding.js';
export { prepareDeflater } from './gzip-pieces.js';

const SLICE_CHARS = 64 * 1024;
/** Hours with fewer events are deflated fresh (caching them saves nothing worth the memory). */
const MIN_CACHED_EVENTS = 32;
/** An hour unchanged for this long is deflated in the background. */
const WARM_INTERVAL_MS = 500;

/** Feeds entries[from-1]..entries[to] into a deflater, slice by slice, comma-separated. */
function feed(d: PieceDeflater, entries: Entry[], from: number, to: number, leadingComma: boolean): void {
  let buf = leadingComma ? ',' : '';
  for (let i = from - 1; i >= to; i--) {
    buf += i === from - 1 ? entries[i]!.line : `,${entries[i]!.line}`;
    if (buf.length >= SLICE_CHARS) {
      d.push(buf);
      buf = '';
    }
  }
  d.push(buf);
}

export class ReadEncoder {
  private readonly cache = new Map<number, { version: number; piece: DeflatedPiece }>();
  private warming: ReturnType<typeof setTimeout> | undefined;
  /** Hour → version seen by a warm pass and when (an hour is deflated once it stops changing). */
  private readonly seen = new Map<number, { version: number; at: number }>();
  private closed = false;

  /** `codecs`: the runtime's native deflater and CRC-32 (gzip-pieces.ts), else fflate and the table. */
  constructor(
    private readonly store: VfsEventStore,
    private readonly codecs: GzipCodecs = {},
  ) {}

  /** The whole hour `h` (entries [a, b)), deflated, from the cache when still valid. */
  private hourPiece(h: number, entries: Entry[], a: number, b: number): DeflatedPiece {
    const version = this.store.version(h);
    const hit = this.cache.get(h);
    if (hit && hit.version === version) return hit.piece;
    const d = new PieceDeflater(this.codecs);
    feed(d, entries, b, a, false);
    const piece = d.finish();
    this.cache.set(h, { version, piece });
    return piece;
  }

  /** The read response gzip-compressed (level 1). */
  gzip(sel: Selection): Uint8Array {
    const { entries, end } = sel;
    const out = new GzipAssembler();
    let fresh = new PieceDeflater(this.codecs);
    fresh.push('{"events":[');
    let first = true;
    let i = sel.start;
    while (i > end) {
      const h = hourOf(entries[i - 1]!.t);
      const hourStart = lowerBoundOf(entries, h * HOUR_MS);
      const a = Math.max(end, hourStart);
      const whole = a === hourStart && i === lowerBoundOf(entries, (h + 1) * HOUR_MS);
      if (whole && i - a >= MIN_CACHED_EVENTS) {
        if (!first) fresh.push(',');
        out.add(fresh.finish());
        out.add(this.hourPiece(h, entries, a, i));
        fresh = new PieceDeflater(this.codecs);
      } else {
        feed(fresh, entries, i, a, !first);
      }
      first = false;
      i = a;
    }
    fresh.push(trailerOf(sel));
    out.add(fresh.finish());
    this.prune();
    return out.finish();
  }

  private prune(): void {
    for (const [h, c] of this.cache) if (c.version !== this.store.version(h)) this.cache.delete(h);
  }

  /**
   * Background deflating of hours, so reads find them ready. Throttled (at most one pass per
   * `intervalMs`), not debounced, so it also runs while events keep arriving: a past hour is
   * deflated once it has stayed unchanged for a whole interval; the current UTC hour is left to
   * the reads. One hour per macrotask, so requests are never held up for long.
   */
  scheduleWarm(intervalMs = WARM_INTERVAL_MS): void {
    if (this.closed || this.warming) return;
    this.warming = setTimeout(() => this.warmStep(), intervalMs);
    (this.warming as { unref?: () => void }).unref?.();
  }

  /** After loading from storage every hour is settled: deflate them all without waiting a pass. */
  warmAllNow(): void {
    const { entries } = this.store.window(-Infinity, Infinity);
    for (let i = entries.length; i > 0; ) {
      const h = hourOf(entries[i - 1]!.t);
      this.seen.set(h, { version: this.store.version(h), at: -Infinity });
      i = lowerBoundOf(entries, h * HOUR_MS);
    }
    this.scheduleWarm(0);
  }

  private warmStep(): void {
    this.warming = undefined;
    if (this.closed) return;
    const { entries } = this.store.window(-Infinity, Infinity);
    let changing = false;
    const present = new Set<number>();
    // The current hour changes with nearly every batch: reads deflate (and cache) it themselves.
    const now = Date.now();
    const current = hourOf(now);
    let i = entries.length;
    while (i > 0) {
      const h = hourOf(entries[i - 1]!.t);
      present.add(h);
      const a = lowerBoundOf(entries, h * HOUR_MS);
      const version = this.store.version(h);
      const hit = this.cache.get(h);
      if (i - a >= MIN_CACHED_EVENTS && h !== current && (!hit || hit.version !== version)) {
        const seen = this.seen.get(h);
        if (seen && seen.version === version && now - seen.at >= WARM_INTERVAL_MS) {
          this.hourPiece(h, entries, a, i);
          this.seen.delete(h);
          this.scheduleWarm(0); // yield, then continue with the next hour
          return;
        }
        if (!seen || seen.version !== version) this.seen.set(h, { version, at: now });
        changing = true;
      }
      i = a;
    }
    this.prune();
    for (const h of this.seen.keys()) if (!present.has(h)) this.seen.delete(h);
    if (changing) this.scheduleWarm();
  }

  close(): void {
    this.closed = true;
    if (this.warming) clearTimeout(this.warming);
    this.cache.clear();
  }
}
