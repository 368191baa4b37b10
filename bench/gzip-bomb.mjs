#!/usr/bin/env node
// Memory of the collector's bounded gunzip on a gzip bomb (was an RSS assertion inside
// test/tracker/ingest-native.test.ts; memory is a measurement, so it lives here).
// Each decoder runs in a fresh process that reads the bomb (64 KiB on disk, 64 MiB inflated) from
// a file: the collector's decodeIngestBody from dist (native zlib, as the node host registers it)
// against the raw baseline, node:zlib gunzipSync with the same maxOutputLength, 1 MiB limit.
// Prints the growth of each process's peak RSS (maxRSS) across the decode; the collector should
// stay near the raw baseline, far below what a full inflate takes (the `unbounded` row, gunzip
// without a limit, shows the measure sees it).
//   npm run build && node bench/gzip-bomb.mjs [--dist dist] [--reps 5]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const here = dirname(fileURLToPath(import.meta.url));
const { values: a } = parseArgs({ options: {
  dist: { type: 'string', default: resolve(here, '../dist') }, reps: { type: 'string', default: '5' }, role: { type: 'string' }, bomb: { type: 'string' },
} });
const LIMIT = 1024 * 1024;

if (a.role) {
  const { gunzipSync } = await import('node:zlib');
  const bomb = readFileSync(a.bomb);
  let decode;
  if (a.role === 'unbounded') {
    decode = async () => (gunzipSync(bomb).byteLength > 0 ? 200 : 500); // what the limit prevents
  } else if (a.role === 'raw') {
    decode = async () => {
      try {
        gunzipSync(bomb, { maxOutputLength: LIMIT });
      } catch (err) {
        if (err.code !== 'ERR_BUFFER_TOO_LARGE') throw err;
        return 413;
      }
      return 200;
    };
  } else {
    const load = (p) => import(pathToFileURL(resolve(a.dist, p)).href);
    // Node's codecs: the runtime object's inflate (src/node/runtime.ts), handed to the decoder;
    // builds of other layouts installed them process-wide (host/codecs.js, node/register-runtime.js).
    const { nodeRuntime } = await load('node/runtime.js').catch(() => ({}));
    await load('host/codecs.js').then((h) => nodeRuntime && h.useCodecs(nodeRuntime), () => nodeRuntime ?? load('node/register-runtime.js'));
    const { decodeIngestBody } = await import(pathToFileURL(resolve(a.dist, 'tracker/ingest-batch.js')).href);
    decode = () => decodeIngestBody(bomb, 'gzip', LIMIT, nodeRuntime?.inflate).then(() => 200, (e) => e.status);
  }
  const before = process.resourceUsage().maxRSS; // KiB
  const status = await decode();
  const grew = process.resourceUsage().maxRSS - before;
  console.log(JSON.stringify({ status, grewMiB: +(grew / 1024).toFixed(1) }));
  process.exit(0);
}

const { gzipSync } = await import('node:zlib');
const work = mkdtempSync(join(tmpdir(), 'mockyard-bomb-'));
const bombFile = join(work, 'bomb.gz');
writeFileSync(bombFile, gzipSync(Buffer.alloc(64 * 1024 * 1024, 0x30), { level: 9 }));
const runs = { unbounded: [], raw: [], mockyard: [] };
for (let i = 0; i < Number(a.reps); i++) {
  for (const role of Object.keys(runs)) {
    const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--role', role, '--dist', a.dist, '--bomb', bombFile], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`${role}: ${r.stderr}`);
    const m = JSON.parse(r.stdout.trim().split('\n').at(-1));
    const expected = role === 'unbounded' ? 200 : 413;
    if (m.status !== expected) throw new Error(`${role} answered ${m.status}, expected ${expected}`);
    runs[role].push(m.grewMiB);
  }
}
rmSync(work, { recursive: true, force: true });
const med = (xs) => [...xs].sort((x, y) => x - y)[xs.length >> 1];
console.log('gzip bomb (64 MiB of zeros, level 9) with a 1 MiB limit: RSS growth in MiB per decode, fresh process each');
for (const [role, xs] of Object.entries(runs)) console.log(`  ${role.padEnd(8)} median ${med(xs)}  runs ${xs.join(' / ')}`);
