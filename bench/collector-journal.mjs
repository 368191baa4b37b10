#!/usr/bin/env node
// The request journal's cost on the collector's ingest path, in-process: the same collector called
// directly and through `journaled()` (src/devtools/journaled-engine.ts, what engine-set does beside
// a mock API), interleaved rounds, same run.   npm run build && node bench/collector-journal.mjs
import { createCollector } from '../dist/tracker/collector.js';
import { createJournal } from '../dist/devtools/journal.js';
import { journaled } from '../dist/devtools/journaled-engine.js';
import { gzipSync } from 'node:zlib';
const c = createCollector({ appId: 'b', logLevel: 'error' });
await c.ready;
const j = journaled(c, createJournal(), 'collector');
const now = Date.now();
const body = (i) => gzipSync(JSON.stringify({ type: 'ingest', events: Array.from({ length: 25 }, (_, k) => ({ id: '', timestamp: new Date(now - (i * 25 + k)).toISOString(), type: 'click', message: `m ${k}` })) }));
const bodies = Array.from({ length: 2000 }, (_, i) => body(i));
const req = (i) => new Request('http://127.0.0.1/_tracker/events', { method: 'POST', headers: { 'content-type': 'application/json', 'content-encoding': 'gzip', 'x-tracker-key': 'x' }, body: bodies[i % bodies.length] });
async function run(e, n) { const t = performance.now(); for (let i = 0; i < n; i++) { const r = await e.handle(req(i)); if (r.status !== 200) throw new Error(r.status); } return (performance.now() - t) / n * 1000; }
const res = { plain: [], journaled: [] };
await run(c, 500); await run(j, 500);
for (let r = 0; r < 7; r++) { res.plain.push(await run(c, 1000)); res.journaled.push(await run(j, 1000)); }
const med = (xs) => xs.sort((a, b) => a - b)[3].toFixed(1);
console.log(`in-process ingest (25-event gzip batch), µs per request, median of 7 interleaved rounds of 1000: plain ${med(res.plain)}, journaled ${med(res.journaled)}`);
await c.close();
