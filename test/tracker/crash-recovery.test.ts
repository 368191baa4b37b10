/**
 * An ingest batch is all-or-nothing on disk, and a retried batch with the same
 * `batchId` is stored once. A real collector process on a real temp dir is killed with SIGKILL
 * while batches spanning two hourly segments are in flight, ten rounds in a row; after each
 * restart every acknowledged batch is readable whole, no batch is partly visible, and the batches
 * that were never acknowledged, sent again with their batchId, end up stored exactly once.
 */
import { statSync, watch, type FSWatcher } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildForProcesses, killHard, startCollectorProcess, stopCollectorProcesses, type CollectorProcess } from '../helpers/collector-process.js';
import { makeTempDir, removeTempDirs } from '../helpers/temp-dir.js';

const EVENTS = 200;
const IN_FLIGHT = 8;
const ROUNDS = 10;
let built: string;

beforeAll(() => {
  built = buildForProcesses('crash-recovery');
}, 120_000);
afterAll(async () => {
  await stopCollectorProcesses();
  await removeTempDirs();
});

/** Half the events in 10:xx, half in 11:xx: every batch spans two segment files. */
function batchBody(batchId: string, day: number): string {
  const date = `2026-03-${String(day).padStart(2, '0')}`;
  const events = Array.from({ length: EVENTS }, (_, i) => ({
    id: '',
    timestamp: `${date}T${i % 2 ? '11:00' : '10:59'}:${String(i % 60).padStart(2, '0')}.000Z`,
    type: 'crash-test',
    b: batchId,
    i,
    pad: 'x'.repeat(1000),
  }));
  return JSON.stringify({ type: 'ingest', batchId, events });
}

/** Batch ids name their round (`r3-b17`); round r writes to day r + 1. */
const dayOf = (batchId: string) => Number(/^r(\d+)-/.exec(batchId)![1]) + 1;

async function post(url: string, batchId: string): Promise<number> {
  const res = await fetch(`${url}/_tracker/events`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: batchBody(batchId, dayOf(batchId)) });
  const body = (await res.json()) as { saved?: number };
  if (res.status !== 200) throw new Error(`ingest answered ${res.status}`);
  return body.saved!;
}

/** Events stored in all rounds' days. */
async function total(url: string): Promise<number> {
  const res = await fetch(`${url}/_tracker?since=2026-03-01T00:00:00Z&until=2026-04-01T00:00:00Z&limit=1`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { total: number }).total;
}

/** Events per batchId stored on one day. */
async function countsByBatch(url: string, day: number): Promise<Map<string, number>> {
  const date = `2026-03-${String(day).padStart(2, '0')}`;
  const res = await fetch(`${url}/_tracker?since=${date}T00:00:00Z&until=${date}T23:59:59.999Z`);
  expect(res.status).toBe(200);
  const { events, total } = (await res.json()) as { events: Array<{ id: string; b: string }>; total: number };
  expect(events).toHaveLength(total);
  expect(new Set(events.map((e) => e.id)).size).toBe(total);
  const counts = new Map<string, number>();
  for (const e of events) counts.set(e.b, (counts.get(e.b) ?? 0) + 1);
  return counts;
}

/**
 * Sends batches, IN_FLIGHT at a time; once `ackedBeforeKill` were answered, SIGKILLs the process
 * at the next write to one of its segment files (inotify), so the kill lands among the writes of
 * batches under way, not between requests.
 */
function loadThenKill(proc: CollectorProcess, dir: string, round: number, ackedBeforeKill: number): Promise<{ acked: string[]; unacked: string[] }> {
  const acked: string[] = [];
  const sent = new Set<string>();
  let n = 0;
  let killed = false;
  return new Promise((resolve) => {
    let watcher: FSWatcher | undefined;
    const finish = () => {
      if (killed) return;
      killed = true;
      proc.child.kill('SIGKILL');
      watcher?.close();
      void killHard(proc.child).then(() => {
        // answers that raced the kill are not counted as acknowledged unless they arrived before it
        resolve({ acked: [...acked], unacked: [...sent].filter((b) => !acked.includes(b)) });
      });
    };
    const next = () => {
      if (killed) return;
      const id = `r${round}-b${n++}`;
      sent.add(id);
      post(proc.url, id).then(
        (saved) => {
          if (killed) return;
          expect(saved).toBe(EVENTS);
          acked.push(id);
          if (acked.length === ackedBeforeKill) {
            // Kill as soon as the first part (10:xx) of a batch under way has reached the disk.
            const first = join(dir, `2026-03-${String(round + 1).padStart(2, '0')}T10.jsonl`);
            const armed = statSync(first).size;
            watcher = watch(dir, () => {
              if (statSync(first, { throwIfNoEntry: false })!.size > armed) finish();
            });
          }
          next();
        },
        () => {}, // the connection died with the process
      );
    };
    for (let k = 0; k < IN_FLIGHT; k++) next();
  });
}

describe('collector process killed with SIGKILL mid-ingest', () => {
  it(`over ${ROUNDS} kill rounds: every acknowledged batch readable, none partial, retried batches stored once`, async () => {
    const dir = await makeTempDir();
    const options = { appId: 'crash', storageDir: dir, logLevel: 'silent' };
    const acked = new Set<string>();
    let unacked: string[] = [];
    let partialSeen = 0;
    for (let round = 0; round <= ROUNDS; round++) {
      const proc = await startCollectorProcess(built, options);
      if (round > 0) {
        // The previous round's day: whole batches only, every acknowledged one among them.
        let counts = await countsByBatch(proc.url, round);
        for (const [, c] of counts) if (c !== EVENTS) partialSeen++;
        expect([...counts].filter(([, c]) => c !== EVENTS)).toEqual([]);
        for (const b of acked) if (dayOf(b) === round) expect(counts.get(b), `acknowledged batch ${b}`).toBe(EVENTS);
        // The client retries what it never saw acknowledged, with the same batchId.
        for (const b of unacked) expect(await post(proc.url, b)).toBe(EVENTS);
        for (const b of unacked) acked.add(b);
        counts = await countsByBatch(proc.url, round);
        for (const b of acked) if (dayOf(b) === round) expect(counts.get(b), `batch ${b} after the retry`).toBe(EVENTS);
        expect(counts.size).toBe([...acked].filter((b) => dayOf(b) === round).length);
      }
      // Every earlier round's batches are still there, once.
      expect(await total(proc.url)).toBe(acked.size * EVENTS);
      if (round === ROUNDS) {
        await killHard(proc.child);
        break;
      }
      const result = await loadThenKill(proc, dir, round, 4 + round);
      for (const b of result.acked) acked.add(b);
      unacked = result.unacked;
    }
    expect(partialSeen).toBe(0);
    expect(acked.size).toBeGreaterThan(ROUNDS * 4);
  }, 180_000);
});
