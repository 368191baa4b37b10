#!/usr/bin/env node
// The shared yardstick's cases (/work/shared/bench: its fixtures, case files, ref-server and
// run-load.mjs) with the server's CPU time per request next to req/s. CPU per request (the
// server's user + system time over a run, from /proc/<pid>/stat, divided by the requests it
// answered) moves much less than req/s when other work shares the machine: a server that waits
// for its core does not count that wait. Same targets as shared-suite.mjs.
//   node bench/cpu-per-request.mjs [--yardstick /work/shared/bench] [--reps 3] [--duration 3]
//       [--only get-one,get-100,...] [--baseline DIR] [--no-mockyard] [--variant NAME=SPEC ...] [--log]
// Targets: `ref` (ref-server --mode memory), `json-server@default` (the CLI as it ships, no
// config), `mockyard` (the yardstick's config: file mode, pagination and filter options; left out
// with --no-mockyard), with --baseline DIR also `json-server@before` / `before` (DIR/dist's CLI),
// and --variant NAME=SPEC (as shared-suite.mjs: `{json}` merged into `mock`, else CLI arguments)
// on the default target. --log: the default targets keep their request log (stdout, one line per
// request, read and dropped), as `mockyard` runs without -q/--quiet. Servers on core 0, wrk on core 1, targets alternating per rep, medians.
// Prints a Markdown table (nothing is written).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const here = dirname(fileURLToPath(import.meta.url));
const { values: a } = parseArgs({ options: {
  yardstick: { type: 'string', default: '/work/shared/bench' }, reps: { type: 'string', default: '3' },
  duration: { type: 'string', default: '3' },
  only: { type: 'string', default: 'get-one,get-100,get-10k-full,query-10k,query-10k-cold,query-100k,query-100k-cold,patch-one,post-delete' },
  baseline: { type: 'string' }, 'no-mockyard': { type: 'boolean', default: false }, log: { type: 'boolean', default: false },
  variant: { type: 'string', multiple: true, default: [] },
} });
const ys = resolve(a.yardstick);
const cli = resolve(here, '../dist/node/cli.js');
if (!existsSync(join(ys, 'run-load.mjs')) || !existsSync(cli)) {
  console.error('cpu-per-request: needs the yardstick (--yardstick DIR) and a build (npm run build)');
  process.exit(1);
}
const { runLoad } = await import(pathToFileURL(join(ys, 'run-load.mjs')).href);
const TICK_US = 1e6 / Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim() || 100);
const ticks = async (pid) => {
  const f = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1].split(' ');
  return Number(f[11]) + Number(f[12]); // utime + stime (fields 14 and 15)
};
const work = await mkdtemp(join(tmpdir(), 'mockyard-cpu-'));
const children = [];
function start(args, ready) {
  const child = spawn('taskset', ['-c', '0', process.execPath, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  return new Promise((res, rej) => {
    let out = '';
    const onData = (d) => {
      out += d;
      const m = ready.exec(out);
      if (!m) return;
      child.stdout.off('data', onData);
      child.stdout.resume(); // what it prints next (the request log, with --log) is read and dropped
      res({ pid: child.pid, url: m[1] });
    };
    child.stdout.on('data', onData);
    child.once('exit', (code) => rej(new Error(`exited ${code}: ${out}`)));
  });
}
const fixtures = (name) => {
  spawnSync(process.execPath, [join(ys, 'gen-fixtures.mjs'), '--out', join(work, name)], { stdio: 'ignore' });
  return join(work, name);
};
const LISTEN = /listening on (http:\/\/127\.0\.0\.1:\d+)/;
const config = (dir, extra = {}) => `export default { mock: { endpointPrefix: '/api', fsDir: ${JSON.stringify(dir)}, logLevel: 'error',
  pagination: { GET: { type: 'query-param', limit: 'limit', skip: 'skip', sort: 'sort', order: 'order' } },
  filters: { GET: { type: 'query-param', filters: [{ key: 'role', valueType: 'string', comparison: 'eq' }, { key: 'age', valueType: 'number', comparison: 'gte' }] } },
  ...${JSON.stringify(extra)} }, logLevel: 'warn' };\n`;
const defaultTarget = (bin, name, args = [], mock = undefined) => {
  const dir = fixtures(name);
  const quiet = a.log ? [] : ['--quiet'];
  if (mock === undefined) return start([bin, '--fs-dir', dir, '--prefix', '/api', '--port', '0', ...quiet, ...args], LISTEN);
  // Options the CLI has no flag for: a config holding them, with the preset the CLI defaults to.
  return writeFile(join(work, `${name}.config.mjs`), `export default { mock: { endpointPrefix: '/api', fsDir: ${JSON.stringify(dir)}, preset: 'json-server', logLevel: 'error', ...${JSON.stringify(mock)} }, logLevel: 'warn' };\n`)
    .then(() => start([bin, '--config', join(work, `${name}.config.mjs`), '--port', '0', ...quiet, ...args], LISTEN));
};
const rows = [];
try {
  const targets = {};
  const ref = await start([join(ys, 'ref-server.mjs'), '--dir', fixtures('ref'), '--port', '0', '--mode', 'memory'], /"url":"(http:\/\/[^"]+)"/);
  targets.ref = { ...ref, base: ref.url };
  const d = await defaultTarget(cli, 'default');
  targets['json-server@default'] = { ...d, base: `${d.url}/api` };
  const baselineCli = a.baseline ? resolve(a.baseline, 'dist/node/cli.js') : undefined;
  if (baselineCli) {
    const b = await defaultTarget(baselineCli, 'before-default');
    targets['json-server@before'] = { ...b, base: `${b.url}/api` };
  }
  for (const v of a.variant) {
    const eq = v.indexOf('=');
    const name = v.slice(0, eq);
    const spec = v.slice(eq + 1);
    const t = spec.startsWith('{') ? await defaultTarget(cli, name, [], JSON.parse(spec)) : await defaultTarget(cli, name, spec.split(/\s+/).filter(Boolean));
    targets[`json-server@${name}`] = { ...t, base: `${t.url}/api` };
  }
  if (!a['no-mockyard']) {
    await writeFile(join(work, 'mine.config.mjs'), config(fixtures('mine')));
    const m = await start([cli, '--config', join(work, 'mine.config.mjs'), '--port', '0'], LISTEN);
    targets.mockyard = { ...m, base: `${m.url}/api` };
    if (baselineCli) {
      await writeFile(join(work, 'before.config.mjs'), config(fixtures('before')));
      const b = await start([baselineCli, '--config', join(work, 'before.config.mjs'), '--port', '0'], LISTEN);
      targets.before = { ...b, base: `${b.url}/api` };
    }
  }
  const cases = [];
  for (const n of ['reads', 'queries', 'writes']) cases.push(...JSON.parse(await readFile(join(ys, 'cases', `${n}.json`), 'utf8')));
  const only = new Set(a.only.split(','));
  const uptimeBefore = spawnSync('uptime', { encoding: 'utf8' }).stdout.trim();
  for (const kase of cases.filter((c) => only.has(c.name))) {
    const names = Object.keys(targets);
    const samples = Object.fromEntries(names.map((n) => [n, []]));
    for (let rep = 0; rep <= Number(a.reps); rep++) {
      const order = names.map((_, i) => names[(i + rep) % names.length]);
      for (const name of order) {
        const t = targets[name];
        // json-server's syntax for the json-server targets (the cold cases carry none: same rewrite as shared-suite.mjs).
        let c = { ...kase, ...(name.startsWith('json-server') ? kase.targets?.['json-server'] ?? {} : {}) };
        if (name.startsWith('json-server') && !kase.targets?.['json-server'] && c.path) c = { ...c, path: c.path.replace('age=', 'age_gte=').replace('skip=100&limit=20', '_page=6&_limit=20') };
        const basePath = new URL(t.base).pathname.replace(/\/$/, '');
        const req = {
          url: c.cyclePost ? t.base.replace(/\/?$/, '/') : t.base.replace(/\/$/, '') + c.path,
          method: c.method, body: c.body, contentType: c.contentType, headers: ['Accept: application/json'],
          cyclePost: c.cyclePost && basePath + c.cyclePost, cycleDelete: c.cycleDelete && basePath + c.cycleDelete,
          cycleBody: c.cycleBody, vary: c.vary, connections: c.connections ?? 10,
          duration: rep === 0 ? 1 : a.duration, cpu: '1',
        };
        const before = await ticks(t.pid);
        const r = await runLoad(req);
        const used = (await ticks(t.pid)) - before;
        if (rep > 0) samples[name].push({ rps: r.rps, cpu: r.requests > 0 ? (used * TICK_US) / r.requests : NaN, non2xx: r.non2xx });
        await new Promise((res) => setTimeout(res, 300));
      }
    }
    const med = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
    const refRps = med(samples.ref.map((s) => s.rps));
    const refCpu = med(samples.ref.map((s) => s.cpu));
    for (const name of names) {
      const s = samples[name];
      const rps = med(s.map((x) => x.rps));
      const cpu = med(s.map((x) => x.cpu));
      rows.push(`| ${kase.name} | ${name} | ${Math.round(rps).toLocaleString('en-US')} | ${s.map((x) => Math.round(x.rps)).join(' / ')} | ${(rps / refRps).toFixed(3)} | ${cpu.toFixed(1)} | ${s.map((x) => x.cpu.toFixed(0)).join(' / ')} | ${(refCpu / cpu).toFixed(3)} | ${s.reduce((n, x) => n + x.non2xx, 0)} |`);
      console.error(rows.at(-1));
    }
  }
  const la = loadavg().map((x) => x.toFixed(2)).join(', ');
  console.log(`${new Date().toISOString()}; ${a.reps} reps × ${a.duration}s after a 1 s warm-up, servers on core 0, wrk -t1 on core 1; \`uptime\` before: ${uptimeBefore}; load average after: ${la}.\n`);
  console.log('| case | target | req/s (median) | runs | req/s ratio to ref | server CPU µs/request (median) | runs | CPU ratio (ref µs / target µs) | non-2xx |');
  console.log('|---|---|---:|---|---:|---:|---|---:|---:|');
  for (const r of rows) console.log(r);
} finally {
  for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
  await new Promise((res) => setTimeout(res, 300));
  await rm(work, { recursive: true, force: true });
}
