/**
 * A whole-window gzip read (the dashboard's) of the PostgreSQL store, bucket by bucket (5 minutes,
 * bucket-pieces.ts), newest first:
 *   - a bucket the process holds deflated is sent as it is (no database work) when the window
 *     holds all its events (its oldest and newest: so `until = now` uses the current bucket too);
 *   - the others, in runs of consecutive buckets, come from the read's snapshot in one query per
 *     run: per bucket its count, the count and the stored JSON texts of its events inside the
 *     window, joined by the server in order (`string_agg(body, ',' ORDER BY ts DESC, seq DESC)`:
 *     one text per bucket, no per-event decoding), pulled bucket by bucket through a cursor as raw
 *     bytes (never decoded into a string: from the socket to the deflater), deflated, and kept
 *     when the window held the whole bucket.
 * Runs of held pieces are sent as one piece (small buckets copied together: fewer socket writes).
 * `total` is the sum of the buckets sent, exact for what the response holds, and final once the
 * chunks are read (the response writes it in its trailer).
 */
import type { ReadQuery } from '../../tracker/read-query.js';
import type { StreamedSelection } from '../../tracker/store.js';
import { crc32Combine, deflateBytesPiece, deflatePiece, type DeflatedPiece } from '../../tracker/gzip-pieces.js';
import { zlibCodecs } from '../zlib-codecs.js';
import { BUCKET_MS, bucketOf, type BucketPieces, type HeldBucket } from './bucket-pieces.js';
import type { Queryable } from './sql-client.js';

/** Windows spanning more buckets of data than this (62 days) are read page by page instead. */
const MAX_BUCKETS = (62 * 86_400_000) / BUCKET_MS;
/** Buckets per cursor fetch of a run (one: a busy bucket's text is a few hundred KB). */
const CURSOR_BUCKETS = 1;
/** Held pieces are sent joined up to about this many compressed bytes. */
const JOINED_BYTES = 1 << 20;
/** Byte runs shorter than this are copied together when held pieces are joined. */
const COPY_BELOW = 32 * 1024;
const SECONDS = BUCKET_MS / 1000;

const iso = (t: number) => new Date(t).toISOString();

export interface BucketCache {
  pieces: BucketPieces;
  /** The generation the read began at (BucketPieces.begin). */
  since: number;
}

type Step = { held: HeldBucket } | { from: number; to: number };

let commaPiece: DeflatedPiece | undefined;

/**
 * Pieces sent as one, separated by commas, the CRCs combined. Small byte runs are copied together
 * into one buffer (one socket write instead of two per bucket); large ones (busy buckets) are
 * passed by reference, so a big window's read does not copy what the process holds.
 */
function joinPieces(pieces: DeflatedPiece[]): DeflatedPiece {
  if (pieces.length === 1) return pieces[0]!;
  const comma = (commaPiece ??= deflatePiece(',', zlibCodecs));
  const bytes: Uint8Array[] = [];
  let small: Uint8Array[] = [];
  let smallBytes = 0;
  const flushSmall = () => {
    if (small.length === 0) return;
    const out = new Uint8Array(smallBytes);
    let at = 0;
    for (const b of small) {
      out.set(b, at);
      at += b.byteLength;
    }
    bytes.push(out);
    small = [];
    smallBytes = 0;
  };
  let deflatedSize = 0;
  let size = 0;
  let crc = 0;
  for (const p of pieces) {
    for (const part of size === 0 ? [p] : [comma, p]) {
      deflatedSize += part.deflatedSize;
      crc = crc32Combine(crc, part.crc, part.size);
      size += part.size;
      for (const b of part.bytes) {
        if (b.byteLength >= COPY_BELOW) {
          flushSmall();
          bytes.push(b);
        } else {
          small.push(b);
          smallBytes += b.byteLength;
        }
      }
    }
  }
  flushSmall();
  return { bytes, crc, size, deflatedSize };
}

/**
 * The window as buckets; undefined when it spans too many (the caller pages it). `cache` is
 * undefined when no held bucket may be trusted (then nothing is kept either). `connect` gives the
 * read's snapshot, opened only when some bucket must be read (a window wholly held needs none).
 */
export async function selectBuckets(
  connect: () => Promise<Queryable>,
  target: { events: string; appId: string },
  q: ReadQuery,
  cache: BucketCache | undefined,
  release: () => Promise<void>,
): Promise<StreamedSelection | undefined> {
  const { events, appId } = target;
  const sinceMs = q.since;
  const beforeMs = Math.floor(q.until) + 1;
  let total = 0;
  const empty = (): StreamedSelection => ({ kind: 'stream', total: 0, page: q.page ?? 1, chunks: (async function* () { await release(); })(), close: release, end: () => ({ limit: 0 }) });
  if (beforeMs <= sinceMs) return empty();
  let lo = bucketOf(sinceMs);
  let hi = bucketOf(beforeMs - 1);
  if (hi - lo >= MAX_BUCKETS) {
    // A wide window: the buckets that hold its events (two index probes).
    const [span] = await (await connect()).query<{ lo: string | null; hi: string | null }>(
      `SELECT floor(extract(epoch FROM min(ts)) / ${SECONDS})::bigint::text AS lo, floor(extract(epoch FROM max(ts)) / ${SECONDS})::bigint::text AS hi
         FROM ${events} WHERE app_id = $1 AND ts >= $2::timestamptz AND ts < $3::timestamptz`,
      [appId, iso(sinceMs), iso(beforeMs)],
    );
    if (!span?.lo || !span.hi) return empty();
    lo = Number(span.lo);
    hi = Number(span.hi);
    if (hi - lo >= MAX_BUCKETS) return undefined;
  }
  // The plan, newest first: held buckets, and runs of buckets to read.
  const steps: Step[] = [];
  for (let b = hi; b >= lo; b--) {
    const held = cache?.pieces.get(b);
    if (held && (held.n === 0 || (held.first >= sinceMs && held.last < beforeMs))) {
      steps.push({ held });
      continue;
    }
    const last = steps[steps.length - 1];
    if (last && 'from' in last && last.from === b + 1) last.from = b;
    else steps.push({ from: b, to: b });
  }
  /** A bucket's row: its number, events in it and in the window, oldest and newest time, text. */
  type Row = { b: number; nall: number; n: number; t0: number; t1: number; text: string | Uint8Array | null };
  const utf8 = new TextDecoder();
  const num = (v: Uint8Array | null) => (v === null ? 0 : Number(utf8.decode(v)));
  async function* rows(db: Queryable, text: string, params: unknown[]): AsyncGenerator<Row> {
    if (db.rawCursor) {
      for await (const batch of db.rawCursor(text, params, CURSOR_BUCKETS)) {
        for (const r of batch) yield { b: num(r[0]!), nall: num(r[1]!), n: num(r[2]!), t0: num(r[3]!), t1: num(r[4]!), text: r[5]! };
      }
      return;
    }
    const all = await db.query<{ b: string; nall: number; n: number; t0: string | null; t1: string | null; text: string | null }>(text, params);
    for (const r of all) yield { b: Number(r.b), nall: Number(r.nall), n: Number(r.n), t0: Number(r.t0 ?? 0), t1: Number(r.t1 ?? 0), text: r.text };
  }
  async function* run(from: number, to: number): AsyncGenerator<DeflatedPiece> {
    const text = `SELECT b::text AS b, c.nall, c.n, c.t0, c.t1, c.text
         FROM generate_series($4::bigint, $5::bigint, -1) AS b,
         LATERAL (SELECT count(*)::int AS nall,
                         (count(*) FILTER (WHERE ts >= $2::timestamptz AND ts < $3::timestamptz))::int AS n,
                         floor(extract(epoch FROM min(ts)) * 1000)::bigint::text AS t0,
                         floor(extract(epoch FROM max(ts)) * 1000)::bigint::text AS t1,
                         string_agg(body, ',' ORDER BY ts DESC, seq DESC) FILTER (WHERE ts >= $2::timestamptz AND ts < $3::timestamptz) AS text
                    FROM ${events}
                   WHERE app_id = $1 AND ts >= to_timestamp(b * ${SECONDS}) AND ts < to_timestamp((b + 1) * ${SECONDS})) AS c`;
    const params = [appId, iso(sinceMs), iso(beforeMs), String(to), String(from)];
    let expect = to;
    for await (const row of rows(await connect(), text, params)) {
      const b = row.b;
      // generate_series drives the nested loop, so rows come newest bucket first.
      if (b !== expect) throw new Error(`bucket read out of order: ${b} after ${expect + 1}`);
      expect--;
      const piece = row.n === 0 ? undefined : typeof row.text === 'string' || row.text === null ? deflatePiece(row.text ?? '', zlibCodecs) : deflateBytesPiece(row.text, zlibCodecs);
      // The window held the whole bucket: keep it.
      if (cache && row.n === row.nall) cache.pieces.set(b, { n: row.n, first: row.t0, last: row.t1, piece }, cache.since);
      total += row.n;
      if (piece) yield piece;
    }
  }
  async function* chunks(): AsyncGenerator<DeflatedPiece> {
    try {
      let joined: DeflatedPiece[] = [];
      let bytes = 0;
      for (const step of steps) {
        if ('held' in step) {
          total += step.held.n;
          if (!step.held.piece) continue;
          joined.push(step.held.piece);
          bytes += step.held.piece.deflatedSize;
          if (bytes < JOINED_BYTES) continue;
        }
        if (joined.length) yield joinPieces(joined);
        joined = [];
        bytes = 0;
        if (!('held' in step)) yield* run(step.from, step.to);
      }
      if (joined.length) yield joinPieces(joined);
    } finally {
      await release();
    }
  }
  return {
    kind: 'stream',
    get total() {
      return total;
    },
    page: q.page ?? 1,
    chunks: chunks(),
    close: release,
    end: () => ({ limit: total }),
  };
}
