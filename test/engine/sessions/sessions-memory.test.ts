/**
 * 200 sessions with a write each, through a real server, memory measured: a first write to one
 * item of a 10,000-row collection must not copy the collection per session (the session keeps
 * the new array of references; the items are shared with the base). Measured with a forced GC
 * (heap used before and after), reported in bench/RESULTS.md and docs/sessions.md.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { memoryFs } from '../../../src/vfs/memory.js';
import { closeServers, startServer } from '../../helpers/server.js';

afterEach(async () => {
  await closeServers();
});

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function heap(): number {
  for (let i = 0; i < 3; i++) gc();
  return process.memoryUsage().heapUsed;
}

const ROWS = Array.from({ length: 10_000 }, (_, i) => ({ id: i + 1, name: `user number ${i + 1}`, email: `user${i + 1}@example.test`, active: i % 2 === 0, score: (i * 37) % 1000 }));

describe('session memory', () => {
  it('200 sessions, each after one write to a 10k-row collection, cost far less than a copy of it each', async () => {
    const json = JSON.stringify(ROWS);
    const s = await startServer({ mock: { endpointPrefix: '/api', logLevel: 'silent', fs: memoryFs({ 'users.json': json }), collections: true, journal: false } });
    // The base parses the collection once (shared by every session from then on).
    expect((await fetch(`${s.url}/api/users/1`)).status).toBe(200);
    const before = heap();
    const N = 200;
    for (let i = 0; i < N; i++) {
      const r = await fetch(`${s.url}/api/users/${i + 1}`, { method: 'PATCH', headers: { 'content-type': 'application/json', 'x-mockyard-session': `m${i}` }, body: JSON.stringify({ name: `changed by m${i}` }) });
      expect(r.status).toBe(200);
    }
    const after = heap();
    const perSession = (after - before) / N;
    // Each session sees its own change and no other's.
    for (const i of [0, 99, 199]) {
      const mine = await (await fetch(`${s.url}/api/users/${i + 1}`, { headers: { 'x-mockyard-session': `m${i}` } })).json();
      expect(mine.name).toBe(`changed by m${i}`);
      const other = await (await fetch(`${s.url}/api/users/${i + 2}`, { headers: { 'x-mockyard-session': `m${i}` } })).json();
      expect(other.name).toBe(`user number ${i + 2}`);
    }
    const listed = (await (await fetch(`${s.url}/_mockyard/api/sessions`)).json()).sessions as Array<{ changes: number; files: number }>;
    expect(listed).toHaveLength(N);
    expect(listed.every((x) => x.changes === 1 && x.files === 1)).toBe(true);
    console.log(`[sessions memory] ${N} sessions after one PATCH each to a ${ROWS.length}-row collection (${(json.length / 1024).toFixed(0)} KiB as JSON): ${(perSession / 1024).toFixed(1)} KiB per session (heap ${(before / 1048576).toFixed(1)} → ${(after / 1048576).toFixed(1)} MiB)`);
    // A copy of the collection per session would be at least its JSON size; the array of
    // references is 8 bytes a row (80 KiB here).
    expect(perSession).toBeLessThan(json.length / 4);
  });
});
