#!/usr/bin/env node
// Runs the shared yardstick once (the scripts beside the project, /work/shared/bench by default;
// not part of this repo and not required by it): its ref-server (--mode memory) against the
// `mockyard` CLI from dist, with its run-suite.mjs, on its own fixtures. Appends the summary to
// bench/RESULTS.md between the shared-suite markers.
//   node bench/shared-suite.mjs [--yardstick /work/shared/bench] [--reps 3] [--duration 3]
//       [--baseline DIR] [--no-write]
// --baseline DIR: also runs DIR/dist/node/cli.js (an earlier build: copy dist/ and package.json
// there before changing the code) as target `before` (with --default also `json-server@before`), so
// before/after ratios come from one run.
// --no-write: print the summary only (RESULTS.md untouched).
// --default: one more target, `json-server@default`: the CLI as it ships with no config file (the
// json-server preset on the folder; the yardstick sends it json-server's query syntax, which the
// case files name under "json-server").
// --variant NAME=SPEC (repeatable): one more mockyard target from the same build, measured in the
// same run: SPEC starting with `{` is JSON merged into the config's `mock` options
// (`nojournal={"journal":false}`), anything else is extra CLI arguments (`nocors=--no-cors`).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const here = dirname(fileURLToPath(import.meta.url));
const { values: a } = parseArgs({ options: {
  yardstick: { type: 'string', default: '/work/shared/bench' }, reps: { type: 'string', default: '3' },
  duration: { type: 'string', default: '3' }, warmup: { type: 'string', default: '1' },
  only: { type: 'string', default: 'get-one,get-100,get-10k-full,query-10k,query-10k-cold,query-100k,query-100k-cold,patch-one,post-delete' },
  baseline: { type: 'string' }, 'no-write': { type: 'boolean', default: false },
  variant: { type: 'string', multiple: true, default: [] },
  default: { type: 'boolean', default: false },
} });
const ys = resolve(a.yardstick);
if (!existsSync(join(ys, 'run-suite.mjs'))) {
  console.error(`shared-suite: no yardstick at ${ys} (pass --yardstick DIR); nothing to do.`);
  process.exit(1);
}
const cli = resolve(here, '../dist/node/cli.js');
if (!existsSync(cli)) {
  console.error('shared-suite: run "npm run build" first.');
  process.exit(1);
}
const baselineCli = a.baseline ? resolve(a.baseline, 'dist/node/cli.js') : undefined;
if (baselineCli && !existsSync(baselineCli)) {
  console.error(`shared-suite: no build at ${baselineCli}.`);
  process.exit(1);
}
const work = await mkdtemp(join(tmpdir(), 'mockyard-yardstick-'));
const children = [];
const run = (cmd, args) => {
  const r = spawnSync(cmd, args, { stdio: ['ignore', 'ignore', 'inherit'] });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed`);
};
function start(args, ready) {
  const child = spawn('taskset', ['-c', '0', process.execPath, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = ready.exec(out);
      if (m) resolve({ child, url: m[1] });
    });
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
  });
}
try {
  run(process.execPath, [join(ys, 'gen-fixtures.mjs'), '--out', join(work, 'ref')]);
  run(process.execPath, [join(ys, 'gen-fixtures.mjs'), '--out', join(work, 'mine')]);
  if (baselineCli) run(process.execPath, [join(ys, 'gen-fixtures.mjs'), '--out', join(work, 'before')]);
  const config = join(work, 'mockyard.config.mjs');
  await writeFile(config, `export default {
  mock: {
    endpointPrefix: '/api', fsDir: './mine', logLevel: 'error',
    pagination: { GET: { type: 'query-param', limit: 'limit', skip: 'skip', sort: 'sort', order: 'order' } },
    filters: { GET: { type: 'query-param', filters: [{ key: 'role', valueType: 'string', comparison: 'eq' }, { key: 'age', valueType: 'number', comparison: 'gte' }] } },
  },
  logLevel: 'warn',
};\n`);
  const ref = await start([join(ys, 'ref-server.mjs'), '--dir', join(work, 'ref'), '--port', '0', '--mode', 'memory'], /"url":"(http:\/\/[^"]+)"/);
  const mine = await start([cli, '--config', config, '--port', '0'], /listening on (http:\/\/127\.0\.0\.1:\d+)/);
  const extra = [];
  if (baselineCli) {
    const beforeConfig = join(work, 'before.config.mjs');
    await writeFile(beforeConfig, (await readFile(config, 'utf8')).replace("'./mine'", "'./before'"));
    const before = await start([baselineCli, '--config', beforeConfig, '--port', '0'], /listening on (http:\/\/127\.0\.0\.1:\d+)/);
    extra.push('--target', `before=${before.url}/api`, '--pid', `before=${before.child.pid}`);
  }
  for (const v of a.variant) {
    const eq = v.indexOf('=');
    const name = v.slice(0, eq);
    const spec = v.slice(eq + 1);
    if (eq <= 0 || !/^[\w-]+$/.test(name)) throw new Error(`--variant NAME=SPEC, got ${v}`);
    run(process.execPath, [join(ys, 'gen-fixtures.mjs'), '--out', join(work, name)]);
    const patch = spec.startsWith('{') ? JSON.parse(spec) : {};
    const vConfig = join(work, `${name}.config.mjs`);
    await writeFile(vConfig, (await readFile(config, 'utf8')).replace("fsDir: './mine',", `fsDir: './${name}', ...${JSON.stringify(patch)},`));
    const args = spec.startsWith('{') ? [] : spec.split(/\s+/).filter(Boolean);
    const t = await start([cli, '--config', vConfig, '--port', '0', ...args], /listening on (http:\/\/127\.0\.0\.1:\d+)/);
    extra.push('--target', `${name}=${t.url}/api`, '--pid', `${name}=${t.child.pid}`);
  }
  if (a.default) {
    run(process.execPath, [join(ys, 'gen-fixtures.mjs'), '--out', join(work, 'default')]);
    const d = await start([cli, '--fs-dir', join(work, 'default'), '--prefix', '/api', '--port', '0', '--quiet'],
      /listening on (http:\/\/127\.0\.0\.1:\d+)/);
    extra.push('--target', `json-server@default=${d.url}/api`, '--pid', `json-server@default=${d.child.pid}`);
    if (baselineCli) {
      run(process.execPath, [join(ys, 'gen-fixtures.mjs'), '--out', join(work, 'before-default')]);
      const b = await start([baselineCli, '--fs-dir', join(work, 'before-default'), '--prefix', '/api', '--port', '0', '--quiet'],
        /listening on (http:\/\/127\.0\.0\.1:\d+)/);
      extra.push('--target', `json-server@before=${b.url}/api`, '--pid', `json-server@before=${b.child.pid}`);
    }
  }
  const out = join(work, 'out');
  const cases = ['reads', 'queries', 'writes'].map((n) => ['--cases', join(ys, 'cases', `${n}.json`)]).flat();
  if (a.default) {
    // The cold-query cases carry no json-server form; give the default target the same filter in
    // json-server's syntax (age_gte, _page/_limit: the same 20 items) in a copy of the case file.
    const queries = JSON.parse(await readFile(join(ys, 'cases', 'queries.json'), 'utf8'));
    for (const c of queries) {
      if (c.targets?.['json-server']) continue;
      c.targets = { ...c.targets, 'json-server': { path: c.path.replace('age=', 'age_gte=').replace('skip=100&limit=20', '_page=6&_limit=20') } };
    }
    await writeFile(join(work, 'queries.json'), JSON.stringify(queries));
    cases.splice(cases.indexOf(join(ys, 'cases', 'queries.json')), 1, join(work, 'queries.json'));
  }
  run(process.execPath, [join(ys, 'run-suite.mjs'), ...cases,
    '--target', `ref=${ref.url}`, '--target', `mockyard=${mine.url}/api`,
    '--pid', `ref=${ref.child.pid}`, '--pid', `mockyard=${mine.child.pid}`, ...extra, '--ref', 'ref',
    '--reps', a.reps, '--duration', a.duration, '--warmup', a.warmup, '--cpu', '1', '--only', a.only,
    '--header', 'Accept: application/json', '--out', out]);
  const summary = await readFile(join(out, 'summary.md'), 'utf8');
  const section = [
    '<!-- bench/shared-suite:start (generated by node bench/shared-suite.mjs) -->',
    '## Shared yardstick (run-suite.mjs, ref-server --mode memory vs the mockyard CLI)',
    '',
    `${new Date().toISOString()}; ${a.reps} reps × ${a.duration}s, cases ${a.only}${baselineCli ? '; `before` = an earlier build' : ''}. Output of the yardstick's summarize.mjs:`,
    '',
    summary.trim(),
    '<!-- bench/shared-suite:end -->',
  ].join('\n');
  if (!a['no-write']) {
    const file = join(here, 'RESULTS.md');
    const current = existsSync(file) ? await readFile(file, 'utf8') : '# Benchmarks\n';
    const re = /<!-- bench\/shared-suite:start[\s\S]*?<!-- bench\/shared-suite:end -->/;
    await writeFile(file, re.test(current) ? current.replace(re, section) : `${current.trimEnd()}\n\n${section}\n`);
  }
  console.log(section);
} finally {
  for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
  await rm(work, { recursive: true, force: true });
}
