#!/usr/bin/env node
// `npm run bench`: mockyard against raw node:http baselines measured in the same run.
//
// Fixtures (bench/fixtures.mjs, byte-identical to the shared yardstick's) are written twice into
// a temp dir; a raw server (bench/servers.mjs raw) and mockyard (serve() from dist, same
// fixtures) run pinned to core 0, wrk to core 1. Before any load, each case's answers are
// compared (status, body bytes, X-Total-Count); a case whose answers differ is reported, not
// measured. Then per case: a warm-up run per target, and --reps rounds alternating the targets.
// The ratio is median(mockyard req/s) / median(raw req/s). Results: bench/RESULTS.md (the
// section between the run.mjs markers) and bench/out/results.json.
//
//   node bench/run.mjs [--duration 3] [--warmup 1] [--reps 3] [--only get-one,patch-one] [--no-write]
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { writeFixtures } from './fixtures.mjs';
import { alternate, hasTaskset, median, parseWrk, pin, startPinned } from './harness.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const { values: a } = parseArgs({ options: {
  duration: { type: 'string', default: '3' }, warmup: { type: 'string', default: '1' }, reps: { type: 'string', default: '3' },
  only: { type: 'string' }, dist: { type: 'string', default: resolve(here, '../dist') }, 'no-write': { type: 'boolean', default: false },
} });

const CASES = [
  { name: 'get-one', path: '/api/users/1', goal: 0.7, note: 'small object file (~130 B)' },
  { name: 'get-10k-full', path: '/api/users10k', goal: 0.7, note: 'whole 10k-item array (~1.4 MB)' },
  { name: 'query-10k', path: '/api/users10k?role=admin&age=30&skip=100&limit=20', goal: 0.8, note: 'role eq + age gte on 10k, items 100..119' },
  { name: 'query-100k', path: '/api/users100k?role=admin&age=30&skip=100&limit=20', goal: 0.8, connections: 2, note: 'same on 100k' },
  // The same query repeated lets mockyard's match memo answer from the matches of the last
  // request. The cold cases change the filter on every request (180 distinct filters cycling,
  // the memo keeps 16 per file), so every request scans: the figure for the filter itself.
  { name: 'query-10k-cold', path: '/api/users10k?role=admin&age=30&skip=100&limit=20', vary: '/api/users10k', goal: 0.8, note: 'role × age changing every request (no memo hit)' },
  { name: 'query-100k-cold', path: '/api/users100k?role=admin&age=30&skip=100&limit=20', vary: '/api/users100k', goal: 0.8, connections: 2, note: 'same on 100k' },
  { name: 'patch-one', path: '/api/users/1', method: 'PATCH', body: '{"age":42}', contentType: 'application/merge-patch+json', goal: 0.5, note: 'RFC 7396 merge, file written' },
  { name: 'handler-small', path: '/api/hello', goal: 0.7, note: 'REST handler res.json(small object) vs JSON.stringify' },
];

function haveWrk() {
  return spawnSync('wrk', ['--version'], { encoding: 'utf8' }).error === undefined;
}
if (!haveWrk()) {
  console.error('bench: wrk is not installed. Install it with:\n  apt-get update && apt-get install -y wrk');
  process.exit(1);
}
if (!existsSync(join(a.dist, 'node', 'index.js'))) {
  console.error(`bench: ${a.dist}/node/index.js is missing; run "npm run build" first (npm run bench does).`);
  process.exit(1);
}
const log = (...m) => console.error(`[bench ${new Date().toISOString().slice(11, 19)}]`, ...m);

const cases = a.only ? CASES.filter((c) => a.only.split(',').includes(c.name)) : CASES;
const work = await mkdtemp(join(tmpdir(), 'mockyard-bench-'));
const children = [];
const cleanup = async () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
  await rm(work, { recursive: true, force: true });
};
process.on('SIGINT', () => cleanup().then(() => process.exit(130)));

function startServer(role, dir) {
  return startPinned(role, process.execPath, [join(here, 'servers.mjs'), role, '--dir', dir, '--dist', a.dist], { children });
}

async function probe(server, c) {
  const res = await fetch(`http://127.0.0.1:${server.port}${c.path}`, {
    method: c.method ?? 'GET',
    headers: c.contentType ? { 'Content-Type': c.contentType } : {},
    body: c.body,
  });
  const bytes = Buffer.from(await res.arrayBuffer());
  return { status: res.status, total: res.headers.get('x-total-count'), size: bytes.length, sha: createHash('sha256').update(bytes).digest('hex').slice(0, 16) };
}

let luaSeq = 0;
async function wrk(server, c, seconds) {
  const args = ['-t1', `-c${c.connections ?? 10}`, `-d${seconds}s`, '--timeout', '10s'];
  if (c.vary) {
    const lua = join(work, `req${++luaSeq}.lua`);
    await writeFile(lua, [
      'local roles = { "admin", "editor", "viewer" }',
      'local n = 0',
      'request = function()',
      '  n = n + 1',
      '  local age = 18 + (n % 60)',
      '  local role = roles[(math.floor(n / 60) % 3) + 1]',
      `  return wrk.format("GET", "${c.vary}?role=" .. role .. "&age=" .. age .. "&skip=100&limit=20")`,
      'end',
    ].join('\n'));
    args.push('-s', lua);
  } else if (c.method && c.method !== 'GET') {
    const lua = join(work, `req${++luaSeq}.lua`);
    await writeFile(lua, `wrk.method = ${JSON.stringify(c.method)}\nwrk.body = ${JSON.stringify(c.body ?? '')}\nwrk.headers["Content-Type"] = ${JSON.stringify(c.contentType ?? 'application/json')}\n`);
    args.push('-s', lua);
  }
  args.push(`http://127.0.0.1:${server.port}${c.path}`);
  const [cmd, full] = pin(1, 'wrk', args);
  return parseWrk(execFileSync(cmd, full, { encoding: 'utf8' }));
}


try {
  log(`fixtures → ${work}`);
  await writeFixtures(join(work, 'raw'));
  await writeFixtures(join(work, 'mockyard'));
  const raw = await startServer('raw', join(work, 'raw'));
  const mine = await startServer('mockyard', join(work, 'mockyard'));
  const results = [];
  for (const c of cases) {
    const pr = await probe(raw, c);
    const pm = await probe(mine, c);
    // mockyard adds X-Total-Count to every JSON answer (spec); it must match wherever raw sends one.
    const same = pr.status === pm.status && pr.sha === pm.sha && (pr.total === null || pr.total === pm.total);
    if (!same) {
      log(`${c.name}: answers differ — raw ${JSON.stringify(pr)} vs mockyard ${JSON.stringify(pm)}; not measured`);
      results.push({ ...c, verified: false, probe: { raw: pr, mockyard: pm } });
      continue;
    }
    log(`${c.name}: answers match (${pr.status}, ${pr.size} B${pr.total ? `, X-Total-Count ${pr.total}` : ''}); loading`);
    await wrk(raw, c, Number(a.warmup));
    await wrk(mine, c, Number(a.warmup));
    const { runs, cpu, problems } = await alternate([raw, mine], Number(a.reps), (s) => wrk(s, c, Number(a.duration)));
    const rawMed = median(runs.raw);
    const myMed = median(runs.mockyard);
    const ratio = myMed / rawMed;
    const cpuRaw = cpu.raw.length ? median(cpu.raw) : null;
    const cpuMine = cpu.mockyard.length ? median(cpu.mockyard) : null;
    const cpuRatio = cpuRaw && cpuMine ? cpuRaw / cpuMine : null;
    log(`${c.name}: raw ${rawMed.toFixed(0)} req/s, mockyard ${myMed.toFixed(0)} req/s, ratio ${ratio.toFixed(2)} (goal ${c.goal})${cpuRatio ? `; server CPU/req ${cpuRaw.toFixed(0)} vs ${cpuMine.toFixed(0)} µs, ratio ${cpuRatio.toFixed(2)}` : ''}${problems.length ? ` — ${problems.join('; ')}` : ''}`);
    results.push({ ...c, verified: true, probe: pr, runs, cpu, raw: rawMed, mockyard: myMed, ratio, cpuRaw, cpuMine, cpuRatio, problems });
  }

  const env = { node: process.version, cpus: cpus().length, cpu: cpus()[0]?.model, loadavg: loadavg().map((x) => x.toFixed(2)), pinned: hasTaskset, duration: Number(a.duration), reps: Number(a.reps), date: new Date().toISOString() };
  await mkdir(join(here, 'out'), { recursive: true });
  await writeFile(join(here, 'out', 'results.json'), JSON.stringify({ env, results }, null, 2));
  const rows = results.map((r) => r.verified
    ? `| ${r.name} | ${r.raw.toFixed(0)} | ${r.mockyard.toFixed(0)} | **${r.ratio.toFixed(2)}** | ${r.cpuRatio ? `${r.cpuRaw.toFixed(0)} / ${r.cpuMine.toFixed(0)} µs = ${r.cpuRatio.toFixed(2)}` : '—'} | ${r.goal} | ${r.ratio >= r.goal ? 'met' : 'not met'} | ${r.note}${r.problems.length ? ` (${r.problems.join('; ')})` : ''} |`
    : `| ${r.name} | — | — | — | — | ${r.goal} | answers differ | raw ${JSON.stringify(r.probe.raw)} vs mockyard ${JSON.stringify(r.probe.mockyard)} |`);
  const section = [
    '<!-- bench/run.mjs:start (generated by npm run bench; edits inside are overwritten) -->',
    '## npm run bench — mockyard vs raw node:http (same run)',
    '',
    `${env.date}, Node ${env.node}, ${env.cpus} × ${env.cpu}, load average before ${env.loadavg.join(' / ')}; servers ${env.pinned ? 'on core 0, wrk on core 1' : 'unpinned (no taskset)'}; wrk -t1 -c10 (-c2 for 100k), ${env.reps} × ${env.duration}s per target, alternating, after a warm-up; medians.`,
    '',
    '| case | raw req/s | mockyard req/s | ratio | server CPU per request raw / mockyard = ratio | goal | | notes |',
    '|---|---:|---:|---:|---:|---:|---|---|',
    ...rows,
    '',
    'The ratio is of median req/s (the goal figure). The CPU column divides each server\'s CPU time (/proc, user+system) by the requests it answered; it moves much less than req/s when other processes share the machine, so it is the better check of a noisy ratio.',
    '',
    'Raw baselines (bench/servers.mjs): file bytes from memory; the query array parsed once and filtered per request; PATCH merged in memory with coalesced atomic file writes; the handler case JSON.stringify per request. Answers (status, body hash, X-Total-Count) are checked equal before a case is measured.',
    '<!-- bench/run.mjs:end -->',
  ].join('\n');
  if (!a['no-write']) {
    const file = join(here, 'RESULTS.md');
    const current = existsSync(file) ? await readFile(file, 'utf8') : '# Benchmarks\n\nAbsolute req/s vary up to 2× between runs on shared machines; the ratio to the baseline measured in the same run is the figure that counts.\n';
    const re = /<!-- bench\/run\.mjs:start[\s\S]*?<!-- bench\/run\.mjs:end -->/;
    await writeFile(file, re.test(current) ? current.replace(re, section) : `${current.trimEnd()}\n\n${section}\n`);
    log(`wrote ${file}`);
  }
  console.log(section);
} finally {
  await cleanup();
}
