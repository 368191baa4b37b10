/**
 * The collector rides out database outages: the real `mockyard` CLI process (`--tracker-db`) on a
 * real throwaway PostgreSQL server that the tests stop (immediate shutdown, as a crash) and start
 * again. Started without its database it connects in the background and stores the first batch
 * within 5 s of the database accepting connections, without a restart; ping answers 503 during an
 * outage and 200 after; batches acknowledged during an outage (kept in the spool) are all stored
 * once the database is back, none twice, also under steady load from several clients and when
 * the collector is killed with SIGKILL while spooling or while draining; a full spool answers
 * 503; `--tracker-db-wait` fails fast naming the database (password redacted); the tracker client
 * backs off on 503 and honours Retry-After.
 *
 * The steady-load test keeps the database down for 60 s when MOCKYARD_LONG_TESTS=1 (.ci/run sets
 * it), for 8 s otherwise. Skipped locally without the server binaries; under CI their absence
 * fails (store-contract.test.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTrackerClient } from '../../src/tracker/client.js';
import { compileSources } from '../helpers/built-src.js';
import { postgresBinaries, startPostgres, type PostgresServer } from '../helpers/postgres-server.js';
import { makeTempDir, removeTempDirs } from '../helpers/temp-dir.js';

const hasServer = postgresBinaries() !== undefined;
const OUTAGE_S = process.env.MOCKYARD_LONG_TESTS === '1' ? 60 : 8;
let pg: PostgresServer;
let cli: string;
const children = new Set<ChildProcess>();

beforeAll(async () => {
  if (!hasServer) return;
  cli = join(compileSources('collector-outage'), 'node', 'cli.js');
  pg = await startPostgres();
}, 180_000);
afterEach(async () => {
  await Promise.all([...children].map(killHard));
  pg?.up();
}, 30_000);
afterAll(async () => {
  pg?.stop();
  await removeTempDirs();
}, 60_000);

interface Cli {
  child: ChildProcess;
  url: string;
  output(): string;
  /** Resolves once the output holds `text` `times` times in all. */
  waitFor(text: string, times?: number): Promise<void>;
}

function occurrences(text: string, part: string): number {
  let n = 0;
  for (let at = text.indexOf(part); at !== -1; at = text.indexOf(part, at + part.length)) n++;
  return n;
}

function run(args: string[], cwd: string): { child: ChildProcess; output(): string; exited: Promise<number | null>; waitFor: Cli['waitFor'] } {
  const child = spawn(process.execPath, [cli, '--port', '0', ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  let out = '';
  const waiting = new Set<() => void>();
  const grow = (d: Buffer) => {
    out += d;
    for (const w of [...waiting]) w();
  };
  child.stdout!.on('data', grow);
  child.stderr!.on('data', grow);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => {
    children.delete(child);
    resolve(code);
  }));
  const waitFor = (text: string, times = 1) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (occurrences(out, text) >= times) {
          waiting.delete(check);
          resolve();
        } else if (child.exitCode !== null || child.signalCode !== null) {
          waiting.delete(check);
          reject(new Error(`the CLI exited before printing "${text}": ${out}`));
        }
      };
      waiting.add(check);
      check();
    });
  return { child, output: () => out, exited, waitFor };
}

let apps = 0;
/** A fresh folder whose config names an app of its own (tests share the database). */
async function appDir(storage?: Record<string, unknown>): Promise<string> {
  const dir = await makeTempDir();
  const tracker = { appId: `app${++apps}`, ...(storage ? { storage } : {}) };
  await writeFile(join(dir, 'mockyard.config.mjs'), `export default { mock: { fsDir: './mocks' }, tracker: ${JSON.stringify(tracker)} };`);
  return dir;
}

async function startCli(cwd: string, args: string[] = []): Promise<Cli> {
  const p = run(['--tracker-db', pg.url, '--quiet', ...args], cwd);
  await p.waitFor('Press Ctrl+C');
  const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(p.output())![1]!;
  return { child: p.child, url, output: p.output, waitFor: p.waitFor };
}

function killHard(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

const DAY = '2026-03-01';

function body(batchId: string, n: number): string {
  const events = Array.from({ length: n }, (_, i) => ({ id: '', timestamp: `${DAY}T10:${String(i % 60).padStart(2, '0')}:00Z`, b: batchId, i }));
  return JSON.stringify({ type: 'ingest', batchId, events });
}

async function post(url: string, batchId: string, n: number): Promise<Response> {
  return fetch(`${url}/_tracker/events`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: body(batchId, n) });
}

/** Every event of the day by batch; fails when an id repeats or a batch is partial. */
async function stored(url: string): Promise<Map<string, number>> {
  const res = await fetch(`${url}/_tracker?since=${DAY}T00:00:00Z&until=${DAY}T23:59:59Z`);
  expect(res.status).toBe(200);
  const json = (await res.json()) as { events: Array<{ id: string; b: string }>; total: number };
  expect(json.events).toHaveLength(json.total);
  expect(new Set(json.events.map((e) => e.id)).size).toBe(json.total);
  const byBatch = new Map<string, number>();
  for (const e of json.events) byBatch.set(e.b, (byBatch.get(e.b) ?? 0) + 1);
  return byBatch;
}

/** Every acknowledged batch stored whole exactly once, and nothing else but whole `maybe` batches. */
function expectExactlyOnce(byBatch: Map<string, number>, acked: Map<string, number>, maybe: Map<string, number> = new Map()): void {
  const wrong: string[] = [];
  for (const [id, n] of acked) if (byBatch.get(id) !== n) wrong.push(`${id}: ${byBatch.get(id) ?? 0} of ${n}`);
  for (const [id, n] of byBatch) if (!acked.has(id) && maybe.get(id) !== n) wrong.push(`${id}: ${n} stored, never acknowledged`);
  expect(wrong).toEqual([]);
}

/**
 * Clients sending batches with batchIds, as the tracker client does: a batch is retried (same id)
 * until it is acknowledged, after Retry-After or 200 ms; the next one follows `gapMs` later.
 */
function steadyLoad(url: string, clients: number, events: number, gapMs: number, prefix = 'c') {
  const acked = new Map<string, number>();
  const sent = new Set<string>();
  const statuses = new Map<number, number>();
  let stopping = false;
  let abandoned = false;
  const loops = Array.from({ length: clients }, async (_, c) => {
    for (let k = 0; !stopping; k++) {
      const id = `${prefix}${c}-${k}`;
      sent.add(id);
      while (!abandoned) {
        let wait = 200;
        try {
          const res = await post(url, id, events);
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          await res.arrayBuffer();
          if (res.ok) {
            acked.set(id, events);
            break;
          }
          wait = Number(res.headers.get('retry-after') ?? 0.2) * 1000;
        } catch {
          // the collector is gone for a moment (killed): retry
        }
        await new Promise((r) => setTimeout(r, wait));
      }
      await new Promise((r) => setTimeout(r, gapMs));
    }
  });
  return {
    acked,
    sent,
    statuses,
    async stop() {
      stopping = true;
      await Promise.all(loops);
    },
    /** Stops at once, leaving the batch each client was sending unacknowledged. */
    async abandon() {
      stopping = abandoned = true;
      await Promise.all(loops);
    },
  };
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe().catch(() => undefined);
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const pingStatus = async (url: string) => (await fetch(`${url}/_tracker/ping`)).status;

describe.skipIf(!hasServer)('the collector through a database outage (real CLI, real PostgreSQL)', () => {
  it('starts without its database, answers the truth meanwhile, and stores within 5 s of the database coming up, without a restart', async () => {
    pg.down();
    const dir = await appDir();
    const c = await startCli(dir);
    await c.waitFor('unreachable (ECONNREFUSED); retrying');
    const ping = await fetch(`${c.url}/_tracker/ping`);
    expect(ping.status).toBe(503);
    expect(ping.headers.get('retry-after')).toBe('2');
    expect(await ping.json()).toMatchObject({ status: 503, error: 'SERVICE_UNAVAILABLE', message: 'Event storage is unreachable (ECONNREFUSED); try again later' });
    const read = await fetch(`${c.url}/_tracker?since=${DAY}T00:00:00Z&until=${DAY}T23:59:59Z`);
    expect(read.status).toBe(503);
    expect(read.headers.get('retry-after')).toBe('2');
    // The spool (on by default for --tracker-db) takes ingest: acknowledged with 202.
    const early = await post(c.url, 'early', 3);
    expect(early.status).toBe(202);
    expect(await early.json()).toEqual({ ok: true, saved: 3, spooled: true });

    pg.up();
    // Reconnected in the background (the retry schedule itself: test/tracker/storage-state.test.ts,
    // on a fake clock); bounded here by `until`, not by a measured time.
    await until('a stored ingest', async () => {
      const res = await post(c.url, `probe-${Date.now()}`, 1);
      return res.status === 200 ? true : undefined;
    });
    expect(await pingStatus(c.url)).toBe(200);
    await c.waitFor('spool drained');
    expect((await stored(c.url)).get('early')).toBe(3);

    const log = c.output();
    expect(log).toContain(`PostgreSQL at 127.0.0.1:${pg.port} unreachable (ECONNREFUSED); retrying`);
    expect(log).toContain(`PostgreSQL at 127.0.0.1:${pg.port} connected`);
    expect(occurrences(log, 'unreachable (ECONNREFUSED)')).toBe(1); // once per change of state
    expect(log).not.toContain('/events');
    expect(log).not.toContain('could not load stored events');
  }, 60_000);

  it("an unreachable database at start-up is an error: --log-level error still prints it", async () => {
    pg.down();
    const dir = await appDir();
    const c = await startCli(dir, ['--log-level', 'error']);
    await c.waitFor('unreachable (ECONNREFUSED); retrying');
    expect(c.output()).toContain(`PostgreSQL at 127.0.0.1:${pg.port} unreachable (ECONNREFUSED); retrying`);
  });

  it(`steady load from several clients through a ${OUTAGE_S}-s outage: ping 503 then 200, every acknowledged batch stored once`, async () => {
    const dir = await appDir();
    const c = await startCli(dir);
    expect(await until('ping 200', async () => ((await pingStatus(c.url)) === 200 ? true : undefined))).toBe(true);
    const load = steadyLoad(c.url, 4, 10, 20);
    await until('a few stored batches', async () => (load.acked.size >= 20 ? true : undefined));
    pg.down();
    await until('ping 503', async () => ((await pingStatus(c.url)) === 503 ? true : undefined), 10_000).catch((err: Error) => {
      throw new Error(`${err.message}; the collector said: ${c.output()}`);
    });
    await new Promise((r) => setTimeout(r, OUTAGE_S * 1000));
    const duringOutage = load.acked.size;
    pg.up();
    await until('ping 200 again', async () => ((await pingStatus(c.url)) === 200 ? true : undefined), 10_000);
    await until('batches after the outage', async () => (load.acked.size >= duringOutage + 40 ? true : undefined));
    await load.stop();
    await c.waitFor('spool drained');
    expect(load.statuses.get(202) ?? 0).toBeGreaterThan(0);
    expectExactlyOnce(await stored(c.url), load.acked);
  }, 120_000 + OUTAGE_S * 1000);

  it('SIGKILL while spooling: a new process takes the spool over; every acknowledged batch stored once', async () => {
    pg.down();
    const dir = await appDir();
    const a = await startCli(dir);
    const load = steadyLoad(a.url, 6, 10, 0);
    await until('acknowledged batches', async () => (load.acked.size >= 60 ? true : undefined));
    await killHard(a.child);
    await load.abandon();
    const unacked = [...load.sent].filter((id) => !load.acked.has(id));
    const acked = new Map(load.acked);
    // The clients retry what was not acknowledged, and go on, through a new process on the folder.
    const b = await startCli(dir);
    for (const id of unacked) {
      expect((await post(b.url, id, 10)).status).toBe(202);
      acked.set(id, 10);
    }
    const again = steadyLoad(b.url, 6, 10, 0, 'r');
    await until('acknowledged batches', async () => (again.acked.size >= 30 ? true : undefined));
    await again.stop();
    for (const [id, n] of again.acked) acked.set(id, n);
    pg.up();
    await b.waitFor('spool drained');
    expect(b.output()).toMatch(/took over \d+ spooled batches/);
    expectExactlyOnce(await stored(b.url), acked);
  }, 120_000);

  it('SIGKILL while draining: the restarted process drains the rest; every batch stored once', async () => {
    pg.down();
    const dir = await appDir();
    const a = await startCli(dir);
    const acked = new Map<string, number>();
    const ids = Array.from({ length: 2500 }, (_, k) => `d${k}`);
    for (let i = 0; i < ids.length; i += 50) {
      const statuses = await Promise.all(ids.slice(i, i + 50).map(async (id) => (await post(a.url, id, 5)).status));
      statuses.forEach((s, j) => {
        expect(s).toBe(202);
        acked.set(ids[i + j]!, 5);
      });
    }
    pg.up();
    await a.waitFor('draining 2500 spooled batches');
    const partial = await until('a partly drained spool', async () => {
      const n = [...(await stored(a.url)).values()].length;
      return n > 0 ? n : undefined;
    });
    await killHard(a.child);
    expect(partial).toBeLessThan(2500); // killed mid-drain
    const b = await startCli(dir);
    await b.waitFor('spool drained');
    expect(b.output()).toMatch(/took over \d+ spooled batches/);
    expectExactlyOnce(await stored(b.url), acked);
  }, 120_000);

  it('a full spool answers 503 with Retry-After; what it acknowledged is stored', async () => {
    pg.down();
    const dir = await appDir({ spool: { maxBytes: 4000 } });
    const c = await startCli(dir);
    const acked = new Map<string, number>();
    let full: Response | undefined;
    for (let k = 0; k < 100 && !full; k++) {
      const res = await post(c.url, `f${k}`, 5);
      if (res.status === 202) acked.set(`f${k}`, 5);
      else full = res;
    }
    expect(full?.status).toBe(503);
    expect(full!.headers.get('retry-after')).toBe('2');
    expect(((await full!.json()) as { message: string }).message).toMatch(/^The event spool is full \(4000 bytes\)/);
    expect(acked.size).toBeGreaterThan(3);
    pg.up();
    await c.waitFor('spool drained');
    expectExactlyOnce(await stored(c.url), acked);
  }, 60_000);

  it('--tracker-db-wait exits non-zero naming the database, password redacted', async () => {
    pg.down();
    const dir = await appDir();
    const url = pg.url.replace('postgres@', 'postgres:s3cret@');
    const p = run(['--tracker-db', url, '--tracker-db-wait', '1'], dir);
    expect(await p.exited).toBe(1);
    expect(p.output()).toContain(`mockyard: ${url.replace('s3cret', '***')} not connected within 1 s (--tracker-db-wait): unreachable (ECONNREFUSED)`);
    expect(p.output()).not.toContain('s3cret');
    expect(p.output()).not.toContain('listening on');
  }, 30_000);

  it('without a spool ingest answers 503 with Retry-After, and the tracker client backs off for it, then delivers', async () => {
    pg.down();
    const dir = await appDir({ spool: false });
    const p = run(['--tracker-db', pg.url], dir); // with the request log
    await p.waitFor('Press Ctrl+C');
    const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(p.output())![1]!;
    const res = await post(url, 'x', 1);
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('2');
    expect(((await res.json()) as { message: string }).message).toBe('Event storage is unreachable (ECONNREFUSED); try again later');

    // The client's own backoff starts at 50 ms; the collector's Retry-After (2 s) wins.
    const client = createTrackerClient({ endpoint: `${url}/_tracker/events`, flushInterval: 50, backoff: { base: 50, max: 10_000 }, compress: false, persist: false, beaconOnPageHide: false, logger: { info() {}, warn() {}, error() {} } });
    client.track({ timestamp: `${DAY}T11:00:00Z`, b: 'from-client' } as never);
    await p.waitFor('POST   /_tracker/events  503', 4); // the one above and three of the client's
    const times = [...p.output().matchAll(/^(\d\d):(\d\d):(\d\d)\.(\d{3}) POST +\/_tracker\/events +503/gm)].slice(1).map((m) => ((Number(m[1]) * 60 + Number(m[2])) * 60 + Number(m[3])) * 1000 + Number(m[4]));
    for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(1900);
    pg.up();
    await until('the client delivered', async () => ((await stored(url)).get('from-client') === 1 ? true : undefined), 30_000);
    expect(client.stats().sent).toBe(1);
    client.stop();
  }, 60_000);
});
