/**
 * A whole-window gzip read (the dashboard's) of the PostgreSQL store, bucket by bucket (5 minutes,
 * bucket-pieces.ts), newest first:
 *   - whole buckets the process holds deflated are sent as they are (no database work);
 *   - the others, in runs of consecutive buckets, come from the read's snapshot in one query per
 *     run: per bucket its count and its stored JSON texts joined by the server in order
 *     (`string_agg(body, ',' ORDER BY ts DESC, seq DESC)`: one text per bucket, no per-event
 *     decoding), pulled a few buckets at a time through a cursor, deflated, and kept when whole.
 * `total` is the sum of the buckets sent, exact for what the response holds, and final once the
 * chunks are read (the response writes it in its trailer).
 */
import type { ReadQuery } from '../../tracker/read-query.js';
import type { StreamedSelection } from '../../tracker/store.js';
import { deflatePiece, type DeflatedPiece } from '../../tracker/gzip-pieces.js';
import { BUCKET_MS, type BucketPieces, type HeldBucket } from './bucket-pieces.js';
import type { Queryable } from './sql-client.js';

/** Windows spanning more buckets of data than this (62 days) are read page by page instead. */
const MAX_BUCKETS = (62 * 86_400_000) / BUCKET_MS;
/** Buckets per cursor fetch of a run. */
const CURSOR_BUCKETS = 8;
const SECONDS = BUCKET_MS / 1000;

const iso = (t: number) => new Date(t).toISOString();

export interface BucketCache {
  pieces: BucketPieces;
  /** The generation the read began at (BucketPieces.begin). */
  since: number;
}

type Step = { held: HeldBucket } | { from: number; to: number };

/**
 * The window as buckets; undefined when it spans too many (the caller pages it). `cache` is
 * undefined when no held bucket may be trusted (then nothing is kept either).
 */
export async function selectBuckets(
  db: Queryable,
  target: { events: string; appId: string },
  q: ReadQuery,
  cache: BucketCache | undefined,
  release: () => Promise<void>,
): Promise<StreamedSelection | undefined> {
  const { events, appId } = target;
  const sinceMs = q.since;
  const beforeMs = Math.floor(q.until) + 1;
  const [span] = await db.query<{ lo: string | null; hi: string | null }>(
    `SELECT floor(extract(epoch FROM min(ts)) / ${SECONDS})::bigint::text AS lo, floor(extract(epoch FROM max(ts)) / ${SECONDS})::bigint::text AS hi
       FROM ${events} WHERE app_id = $1 AND ts >= $2::timestamptz AND ts < $3::timestamptz`,
    [appId, iso(sinceMs), iso(beforeMs)],
  );
  let total = 0;
  const empty = (): StreamedSelection => ({ kind: 'stream', total: 0, page: q.page ?? 1, chunks: (async function* () { await release(); })(), close: release, end: () => ({ limit: 0 }) });
  if (!span?.lo || !span.hi) return empty();
  const lo = Number(span.lo);
  const hi = Number(span.hi);
  if (hi - lo >= MAX_BUCKETS) return undefined;
  const whole = (b: number) => b * BUCKET_MS >= sinceMs && (b + 1) * BUCKET_MS <= beforeMs;
  // The plan, newest first: held buckets, and runs of buckets to read.
  const steps: Step[] = [];
  for (let b = hi; b >= lo; b--) {
    const held = cache && whole(b) ? cache.pieces.get(b) : undefined;
    if (held) {
      steps.push({ held });
      continue;
    }
    const last = steps[steps.length - 1];
    if (last && 'from' in last && last.from === b + 1) last.from = b;
    else steps.push({ from: b, to: b });
  }
  async function* run(from: number, to: number): AsyncGenerator<DeflatedPiece> {
    const text = `SELECT b::text AS b, c.n, c.text
         FROM generate_series($4::bigint, $5::bigint, -1) AS b,
         LATERAL (SELECT count(*)::int AS n, string_agg(body, ',' ORDER BY ts DESC, seq DESC) AS text FROM ${events}
                   WHERE app_id = $1 AND ts >= greatest($2::timestamptz, to_timestamp(b * ${SECONDS}))
                     AND ts < least($3::timestamptz, to_timestamp((b + 1) * ${SECONDS}))) AS c`;
    const params = [appId, iso(sinceMs), iso(beforeMs), String(to), String(from)];
    const source: AsyncIterable<Array<{ b: string; n: number; text: string | null }>> = db.cursor
      ? db.cursor(text, params, CURSOR_BUCKETS)
      : (async function* () { yield await db.query<{ b: string; n: number; text: string | null }>(text, params); })();
    let expect = to;
    for await (const rows of source) {
      for (const row of rows) {
        const b = Number(row.b);
        // generate_series drives the nested loop, so rows come newest bucket first.
        if (b !== expect) throw new Error(`bucket read out of order: ${b} after ${expect + 1}`);
        expect--;
        const piece = row.n > 0 ? deflatePiece(row.text ?? '') : undefined;
        if (cache && whole(b)) cache.pieces.set(b, row.n, piece, cache.since);
        total += row.n;
        if (piece) yield piece;
      }
    }
  }
  async function* chunks(): AsyncGenerator<DeflatedPiece> {
    try {
      for (const step of steps) {
        if ('held' in step) {
          total += step.held.n;
          if (step.held.piece) yield step.held.piece;
        } else yield* run(step.from, step.to);
      }
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
