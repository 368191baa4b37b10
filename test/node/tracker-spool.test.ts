/**
 * The collector's ingest spool on disk (src/node/tracker-spool.ts), on real files: batches come
 * back in the order they were added, across the file being written; a torn last line (a write cut
 * short, never acknowledged) is skipped; what was released is not given again after a restart
 * (the `.done` offset), and what was not is; the files of a process that is gone are taken over,
 * those of a live one are left alone; past maxBytes `add` is a 503.
 */
import { spawnSync } from 'node:child_process';
import { appendFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/core/logger.js';
import { DiskSpool } from '../../src/node/tracker-spool.js';
import { makeTempDir, removeTempDirs } from '../helpers/temp-dir.js';

afterAll(removeTempDirs);

const warnings: string[] = [];
const logger = createLogger('info', { info() {}, warn: (m: string) => warnings.push(m), error: (m: string) => warnings.push(m) }, '');
const text = (id: string) => JSON.stringify({ type: 'ingest', batchId: id, events: [{ id: '', timestamp: '2026-03-01T10:00:00Z' }] });
const batch = (id: string) => ({ batchId: id, text: text(id) });

async function open(dir: string, maxBytes = 1 << 20): Promise<DiskSpool> {
  const s = new DiskSpool({ dir, maxBytes }, logger);
  await s.load();
  return s;
}

async function drainAll(s: DiskSpool): Promise<string[]> {
  const out: string[] = [];
  for (;;) {
    const step = await s.peek(3);
    if (step.length === 0) return out;
    out.push(...step.map((b) => b.batchId));
    await s.release(step.length);
  }
}

/** A pid no process has (a child that has exited). */
function deadPid(): number {
  return Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout);
}

describe('DiskSpool', () => {
  it('gives batches back in order, across the file being written, and counts them', async () => {
    const s = await open(await makeTempDir());
    await Promise.all(['a', 'b', 'c', 'd'].map((id) => s.add(batch(id)))); // one group commit
    expect(s.batches).toBe(4);
    expect(s.has('c')).toBe(true);
    const first = await s.peek(2);
    expect(first.map((b) => b.batchId)).toEqual(['a', 'b']);
    expect(first[0]!.text).toBe(text('a'));
    await s.release(2);
    await s.add(batch('e')); // a new file: the one read is closed
    expect(await drainAll(s)).toEqual(['c', 'd', 'e']);
    expect(s.batches).toBe(0);
    expect(s.bytes).toBe(0);
    expect(s.has('c')).toBe(false);
    await s.close();
  });

  it('after a restart gives back what was not released, skipping a torn last line', async () => {
    const dir = await makeTempDir();
    const a = await open(dir);
    for (const id of ['a', 'b', 'c', 'd']) await a.add(batch(id));
    await a.peek(2);
    await a.release(2);
    await a.close();
    const [file] = (await readdir(dir)).filter((n) => n.endsWith('.spool'));
    await appendFile(join(dir, file!), '{"type":"ingest","batchId":"torn","ev'); // cut short by a crash
    const b = await open(dir);
    expect(b.batches).toBe(2);
    expect(await drainAll(b)).toEqual(['c', 'd']);
    expect(warnings.some((w) => w.includes('torn last line'))).toBe(true);
    expect((await readdir(dir)).filter((n) => n.includes('.spool'))).toEqual([]);
    await b.close();
  });

  it("takes over a dead process's files (oldest first), never a live one's", async () => {
    const dir = await makeTempDir();
    const dead = deadPid();
    await writeFile(join(dir, `${dead}-000000000000002.aaaa-0.spool`), `${text('late')}\n`);
    await writeFile(join(dir, `${dead}-000000000000001.bbbb-0.spool`), `${text('early')}\n`);
    await writeFile(join(dir, `1-000000000000001.cccc-0.spool`), `${text('pid1')}\n`); // init: alive
    const s = await open(dir);
    expect(await drainAll(s)).toEqual(['early', 'late']);
    expect((await readdir(dir)).sort()).toEqual(['1-000000000000001.cccc-0.spool']);
    await s.close();
  });

  it('past maxBytes add is a 503 with Retry-After', async () => {
    const s = await open(await makeTempDir(), text('a').length * 2 + 2);
    await s.add(batch('a'));
    await s.add(batch('b'));
    await expect(s.add(batch('c'))).rejects.toMatchObject({ status: 503, headers: { 'Retry-After': '2' } });
    expect(s.batches).toBe(2);
    await s.close();
  });
});
