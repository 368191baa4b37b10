/**
 * Many processes on one store: real collector processes on a real throwaway PostgreSQL
 * server. A batch stored through process A is pushed to a WebSocket client of process B; two
 * processes ingesting at once lose and duplicate nothing (batchIds hold across processes); a
 * process killed with SIGKILL mid-ingest leaves every acknowledged batch whole and no partial one.
 * Skipped locally without the server binaries; under CI their absence fails
 * (store-contract.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { buildForProcesses, killHard, startCollectorProcess, stopCollectorProcesses } from '../../helpers/collector-process.js';
import { postgresBinaries, startPostgres, type PostgresServer } from '../../helpers/postgres-server.js';

const hasServer = postgresBinaries() !== undefined;
let server: PostgresServer | undefined;
let built: string;

beforeAll(async () => {
  if (!hasServer) return;
  built = buildForProcesses('postgres-processes');
  server = await startPostgres();
}, 180_000);
afterAll(async () => {
  await stopCollectorProcesses();
  server?.stop();
}, 60_000);

const options = (table: string) => ({ appId: 'multi', logLevel: 'silent', storage: { postgres: { url: server!.url, table } } });

function body(batchId: string, n: number, day = '2026-03-01'): string {
  const events = Array.from({ length: n }, (_, i) => ({ id: '', timestamp: `${day}T${i % 2 ? '11:00' : '10:59'}:${String(i % 60).padStart(2, '0')}Z`, b: batchId, i }));
  return JSON.stringify({ type: 'ingest', batchId, events });
}

async function post(url: string, batchId: string, n: number): Promise<number> {
  const res = await fetch(`${url}/_tracker/events`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: body(batchId, n) });
  if (res.status !== 200) throw new Error(`ingest answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { saved: number }).saved;
}

async function counts(url: string): Promise<{ total: number; byBatch: Map<string, number>; ids: number }> {
  const res = await fetch(`${url}/_tracker?since=2026-03-01T00:00:00Z&until=2026-03-02T00:00:00Z`);
  const json = (await res.json()) as { events: Array<{ id: string; b: string }>; total: number };
  const byBatch = new Map<string, number>();
  for (const e of json.events) byBatch.set(e.b, (byBatch.get(e.b) ?? 0) + 1);
  expect(json.events).toHaveLength(json.total);
  return { total: json.total, byBatch, ids: new Set(json.events.map((e) => e.id)).size };
}

describe.skipIf(!hasServer)('collector processes sharing one PostgreSQL store', () => {
  it('a batch stored through process A is pushed to a WebSocket client of process B', async () => {
    const a = await startCollectorProcess(built, options('push'));
    const b = await startCollectorProcess(built, options('push'));
    const ws = new WebSocket(`${b.url.replace('http', 'ws')}/_tracker/ws`);
    const pushes: any[] = [];
    const got = new Promise<void>((resolve) => ws.on('message', (data) => {
      const m = JSON.parse(String(data));
      if (m.type === 'push') pushes.push(m);
      if (pushes.flatMap((p) => p.events).length >= 30) resolve();
    }));
    await new Promise((resolve) => ws.once('open', resolve));
    await counts(b.url); // B has loaded (and LISTENs) once it answers a read
    expect(await post(a.url, 'from-a', 30)).toBe(30);
    await got;
    const events = pushes.flatMap((p) => p.events);
    expect(events.map((e: any) => e.i)).toEqual(Array.from({ length: 30 }, (_, i) => i));
    expect(events.every((e: any) => typeof e.id === 'string' && e.b === 'from-a')).toBe(true);
    ws.close();
    await Promise.all([killHard(a.child), killHard(b.child)]);
  }, 60_000);

  it('two processes ingesting at once lose and duplicate nothing; a retry through the other process is a replay', async () => {
    const a = await startCollectorProcess(built, options('concurrent'));
    const b = await startCollectorProcess(built, options('concurrent'));
    const ids = Array.from({ length: 40 }, (_, k) => `c${k}`);
    const saved = await Promise.all(ids.map((id, k) => post(k % 2 ? a.url : b.url, id, 25)));
    expect(saved.every((n) => n === 25)).toBe(true);
    // every batch again, through the other process
    expect((await Promise.all(ids.map((id, k) => post(k % 2 ? b.url : a.url, id, 25)))).every((n) => n === 25)).toBe(true);
    for (const url of [a.url, b.url]) {
      const c = await counts(url);
      expect(c.total).toBe(40 * 25);
      expect(c.ids).toBe(40 * 25);
      expect([...c.byBatch.values()].every((n) => n === 25)).toBe(true);
    }
    await Promise.all([killHard(a.child), killHard(b.child)]);
  }, 60_000);

  it('SIGKILL mid-ingest, 5 rounds: acknowledged batches whole, none partial, retries stored once', async () => {
    const acked = new Set<string>();
    let unacked: string[] = [];
    for (let round = 0; round <= 5; round++) {
      const p = await startCollectorProcess(built, options('killed'));
      for (const id of unacked) expect(await post(p.url, id, 200)).toBe(200);
      for (const id of unacked) acked.add(id);
      const c = await counts(p.url);
      expect([...c.byBatch].filter(([, n]) => n !== 200)).toEqual([]);
      for (const id of acked) expect(c.byBatch.get(id), id).toBe(200);
      expect(c.total).toBe(acked.size * 200);
      if (round === 5) {
        await killHard(p.child);
        break;
      }
      const sent: string[] = [];
      const done: string[] = [];
      let n = 0;
      let killed = false;
      await new Promise<void>((resolve) => {
        const next = () => {
          if (killed) return;
          const id = `k${round}-${n++}`;
          sent.push(id);
          post(p.url, id, 200).then(() => {
            if (killed) return;
            done.push(id);
            if (done.length === 5 + round) {
              killed = true;
              void killHard(p.child).then(resolve);
            } else next();
          }, () => {});
        };
        for (let i = 0; i < 6; i++) next();
      });
      for (const id of done) acked.add(id);
      unacked = sent.filter((id) => !done.includes(id));
    }
  }, 120_000);
});
