#!/usr/bin/env node
// In-process cost of the disk driver's checks (link rule, reserved temp names) on the paths that
// matter, for one or more builds, interleaved in one process so they share the machine's state:
//   - a cached GET answered by engine.handleCached (the hot path: must not pay for the checks),
//   - diskFs.stat of a two-segment path (what the file cache pays on load and after a change
//     report), against the raw baseline: fs.statSync of the same file,
//   - a serial PATCH of a small file (write path: temp file + rename).
// CPU time per operation (process.cpuUsage), medians of --rounds rounds of ~300 ms per measure.
//   npm run build && node bench/disk-vfs.mjs [--dist dist] [--dist other-build] [--rounds 11]
import { mkdtempSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const here = dirname(fileURLToPath(import.meta.url));
const { values: a } = parseArgs({ options: {
  dist: { type: 'string', multiple: true, default: [resolve(here, '../dist')] }, rounds: { type: 'string', default: '11' },
} });
const dir = mkdtempSync(join(tmpdir(), 'mockyard-disk-vfs-'));
mkdirSync(join(dir, 'users'));
writeFileSync(join(dir, 'users', '1.json'), JSON.stringify({ id: 1, name: 'Ada' }));

const builds = [];
for (const dist of a.dist) {
  const load = (p) => import(pathToFileURL(resolve(dist, p)).href);
  await load('node/register-runtime.js').catch(() => {}); // builds before the explicit runtime object
  const { createMockApi } = await load('engine/create-mock-api.js');
  const { diskFs } = await load('vfs/disk.js');
  const vfs = diskFs(dir);
  const api = createMockApi({ endpointPrefix: '/api', fs: vfs, logLevel: 'silent' });
  await api.ready();
  if ((await api.handle(new Request('http://x/api/users/1'))).status !== 200) throw new Error(`${dist}: GET failed`);
  builds.push({ name: basename(resolve(dist)), api, vfs, get: [], stat: [], patch: [] });
}
const raw = [];
const get = new Request('http://x/api/users/1');
const patch = () => new Request('http://x/api/users/1', { method: 'PATCH', body: '{"n":1}', headers: { 'content-type': 'application/json' } });
// CPU time of this process per operation (user + system, thread pool included): far steadier than
// wall time on a machine other work is loading.
const perOp = async (ms, batch, op) => {
  let n = 0;
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  while (performance.now() - t0 < ms) {
    for (let i = 0; i < batch; i++) await op();
    n += batch;
  }
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / n;
};
for (let round = 0; round < Number(a.rounds); round++) {
  raw.push(await perOp(300, 200, () => statSync(join(dir, 'users', '1.json'))));
  for (const b of builds) {
    // handleCached declines once the cache wants a re-check; the host then calls handle (as here).
    b.get.push(await perOp(300, 1000, () => b.api.handleCached(get) ?? b.api.handle(get)));
    b.stat.push(await perOp(300, 200, () => b.vfs.stat('users/1.json')));
    b.patch.push(await perOp(300, 20, async () => {
      if ((await b.api.handle(patch())).status !== 200) throw new Error('PATCH failed');
    }));
  }
}
const med = (xs) => [...xs].sort((x, y) => x - y)[xs.length >> 1].toFixed(2);
console.log(`CPU µs per operation, median of ${a.rounds} rounds (raw fs.statSync of the same file: ${med(raw)} µs)`);
console.log('| build | cached GET | diskFs.stat | PATCH (serial) |\n|---|---:|---:|---:|');
for (const b of builds) console.log(`| ${b.name} | ${med(b.get)} | ${med(b.stat)} | ${med(b.patch)} |`);
for (const b of builds) await b.api.close();
rmSync(dir, { recursive: true, force: true });
process.exit(0);
