#!/usr/bin/env node
// `node bench/json-server.mjs` (after `npm run build`): `mockyard db.json` (the built CLI, the
// json-server preset) against a raw node:http server holding the same db.json in memory, in the
// same run. The db is json-server's layout with a 10k-row collection (the `users10k` fixture,
// ~1.4 MB) plus a singleton.
//
//   item-get    GET   /api/users/5000            raw: Map id → item, JSON.stringify per request
//   item-patch  PATCH /api/users/5000 {"age":42} raw: merge into the item in memory, answer it,
//                                                rewrite db.json (temp + rename) coalesced in
//                                                the background, as mockyard's json-db does
//
// Answers are compared (status, body bytes) before any load; wrk -t1 -c10, servers pinned to
// core 0, wrk to core 1; warm-up, then --reps rounds alternating the targets; medians. Writes
// the section between the bench/json-server markers of bench/RESULTS.md.
//
//   node bench/json-server.mjs [--duration 3] [--reps 3] [--no-write]
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import { mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { writeFixtures } from './fixtures.mjs';
import { alternate, hasTaskset, median, parseWrk, pin, startPinned } from './harness.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const { values: a, positionals } = parseArgs({ allowPositionals: true, options: {
  duration: { type: 'string', default: '3' }, warmup: { type: 'string', default: '1' }, reps: { type: 'string', default: '3' },
  dist: { type: 'string', default: resolve(here, '../dist') }, 'no-write': { type: 'boolean', default: false }, dir: { type: 'string' },
} });

// ---- the raw reference server (run as a child: node bench/json-server.mjs raw --dir DIR) -------
async function rawServer(dir) {
  const file = join(dir, 'db.json');
  const db = JSON.parse(await readFile(file, 'utf8'));
  const index = new Map();
  db.users.forEach((u, i) => index.set(String(u.id), i));
  let writing = null;
  let again = false;
  const persist = () => {
    if (writing) { again = true; return; }
    writing = (async () => {
      do {
        again = false;
        const tmp = `${file}.${process.pid}.tmp`;
        await writeFile(tmp, `${JSON.stringify(db, null, 2)}\n`);
        await rename(tmp, file);
      } while (again);
    })().finally(() => { writing = null; });
  };
  const send = (res, status, body) => {
    res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': String(Buffer.byteLength(body)) });
    res.end(body);
  };
  const server = createServer((req, res) => {
    const m = /^\/api\/users\/([^/?]+)$/.exec(req.url);
    const i = m ? index.get(decodeURIComponent(m[1])) : undefined;
    if (i === undefined) return send(res, 404, '{"error":"Not Found"}');
    if (req.method === 'GET') return send(res, 200, JSON.stringify(db.users[i]));
    if (req.method === 'PATCH') {
      const chunks = [];
      req.on('data', (c) => chunks.push(c));
      req.on('end', () => {
        let patch;
        try { patch = JSON.parse(Buffer.concat(chunks).toString('utf8')); } catch { return send(res, 400, '{"error":"bad json"}'); }
        const item = { ...db.users[i] };
        for (const [k, v] of Object.entries(patch)) {
          if (k === '__proto__' || k === 'constructor' || k === 'prototype') continue;
          if (v === null) delete item[k];
          else item[k] = v;
        }
        db.users[i] = item;
        send(res, 200, JSON.stringify(item));
        persist();
      });
      return;
    }
    send(res, 405, '{"error":"Method Not Allowed"}');
  });
  server.keepAliveTimeout = 65_000;
  server.listen(0, '127.0.0.1', () => console.log(JSON.stringify({ port: server.address().port })));
  process.on('SIGTERM', () => process.exit(0));
}

if (positionals[0] === 'raw') {
  await rawServer(a.dir);
} else {
  await main();
}

async function main() {
  if (spawnSync('wrk', ['--version']).error !== undefined) {
    console.error('bench: wrk is not installed (apt-get install -y wrk)');
    process.exit(1);
  }
  const log = (...m) => console.error(`[bench ${new Date().toISOString().slice(11, 19)}]`, ...m);
  const work = await mkdtemp(join(tmpdir(), 'mockyard-bench-db-'));
  const children = [];
  const cleanup = async () => {
    for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
    await rm(work, { recursive: true, force: true });
  };

  const start = (role, cmd, args, cwd) => startPinned(role, cmd, args, { cwd, children });


  const CASES = [
    { name: 'item-get', path: '/api/users/5000', goal: 0.7, note: 'GET of one item of a 10k-row collection in db.json' },
    { name: 'item-patch', path: '/api/users/5000', method: 'PATCH', body: '{"age":42}', goal: 0.5, note: 'merge into one item; db.json (1.4 MB) rewritten, coalesced' },
  ];

  let seq = 0;
  const wrk = async (server, c, seconds) => {
    const args = ['-t1', '-c10', `-d${seconds}s`, '--timeout', '10s'];
    if (c.method) {
      const lua = join(work, `req${++seq}.lua`);
      await writeFile(lua, `wrk.method = ${JSON.stringify(c.method)}\nwrk.body = ${JSON.stringify(c.body)}\nwrk.headers["Content-Type"] = "application/json"\n`);
      args.push('-s', lua);
    }
    args.push(`http://127.0.0.1:${server.port}${c.path}`);
    const [cmd, full] = pin(1, 'wrk', args);
    return parseWrk(execFileSync(cmd, full, { encoding: 'utf8' }));
  };
  const probe = async (server, c) => {
    const res = await fetch(`http://127.0.0.1:${server.port}${c.path}`, { method: c.method ?? 'GET', headers: c.method ? { 'Content-Type': 'application/json' } : {}, body: c.body });
    const bytes = Buffer.from(await res.arrayBuffer());
    return { status: res.status, size: bytes.length, sha: createHash('sha256').update(bytes).digest('hex').slice(0, 16) };
  };


  try {
    await writeFixtures(join(work, 'fixtures'));
    const users = JSON.parse(await readFile(join(work, 'fixtures', 'users10k.json'), 'utf8'));
    const db = `${JSON.stringify({ users, profile: { name: 'bench' } }, null, 2)}\n`;
    for (const d of ['raw', 'mockyard']) {
      await rm(join(work, d), { recursive: true, force: true });
      await import('node:fs/promises').then((fs) => fs.mkdir(join(work, d)));
      await writeFile(join(work, d, 'db.json'), db);
    }
    const raw = await start('raw', process.execPath, [fileURLToPath(import.meta.url), 'raw', '--dir', join(work, 'raw')]);
    const mine = await start('mockyard', process.execPath, [join(a.dist, 'node', 'cli.js'), 'db.json', '--prefix', '/api', '--port', '0', '--quiet', '--no-cors', '--log-level', 'warn'], join(work, 'mockyard'));
    const results = [];
    for (const c of CASES) {
      const pr = await probe(raw, c);
      const pm = await probe(mine, c);
      if (pr.status !== pm.status || pr.sha !== pm.sha) {
        log(`${c.name}: answers differ — raw ${JSON.stringify(pr)} vs mockyard ${JSON.stringify(pm)}; not measured`);
        results.push({ ...c, verified: false, pr, pm });
        continue;
      }
      log(`${c.name}: answers match (${pr.status}, ${pr.size} B); loading`);
      await wrk(raw, c, Number(a.warmup));
      await wrk(mine, c, Number(a.warmup));
      const { runs, cpu, problems } = await alternate([raw, mine], Number(a.reps), (s) => wrk(s, c, Number(a.duration)));
      const ratio = median(runs.mockyard) / median(runs.raw);
      const cpuRaw = cpu.raw.length ? median(cpu.raw) : null;
      const cpuMine = cpu.mockyard.length ? median(cpu.mockyard) : null;
      const cpuRatio = cpuRaw && cpuMine ? cpuRaw / cpuMine : null;
      log(`${c.name}: raw ${median(runs.raw).toFixed(0)} req/s, mockyard ${median(runs.mockyard).toFixed(0)} req/s, ratio ${ratio.toFixed(2)} (goal ${c.goal})${cpuRatio ? `; server CPU/req ${cpuRaw.toFixed(0)} vs ${cpuMine.toFixed(0)} µs, ratio ${cpuRatio.toFixed(2)}` : ''}`);
      results.push({ ...c, verified: true, runs, raw: median(runs.raw), mockyard: median(runs.mockyard), ratio, cpuRaw, cpuMine, cpuRatio, problems });
    }
    // Both files must still be valid JSON holding every write.
    for (const s of [raw, mine]) s.child.kill('SIGTERM');
    await Promise.all([raw, mine].map((s) => new Promise((r) => (s.child.exitCode !== null ? r() : s.child.once('exit', r)))));
    const check = {};
    for (const d of ['raw', 'mockyard']) check[d] = JSON.parse(await readFile(join(work, d, 'db.json'), 'utf8')).users.find((u) => u.id === 5000)?.age;
    log(`db.json after the run: raw users/5000.age = ${check.raw}, mockyard = ${check.mockyard}`);

    const env = `${new Date().toISOString()}, Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model}, load average before ${loadavg().map((x) => x.toFixed(2)).join(' / ')}; servers ${hasTaskset ? 'on core 0, wrk on core 1' : 'unpinned'}; wrk -t1 -c10, ${a.reps} × ${a.duration}s per target, alternating, after a warm-up; medians.`;
    const rows = results.map((r) => (r.verified
      ? `| ${r.name} | ${r.raw.toFixed(0)} | ${r.mockyard.toFixed(0)} | **${r.ratio.toFixed(2)}** | ${r.cpuRatio ? `${r.cpuRaw.toFixed(0)} / ${r.cpuMine.toFixed(0)} µs = ${r.cpuRatio.toFixed(2)}` : '—'} | ${r.goal} | ${r.ratio >= r.goal ? 'met' : 'not met'} | ${r.note}${r.problems.length ? ` (${r.problems.join('; ')})` : ''} |`
      : `| ${r.name} | — | — | — | — | ${r.goal} | answers differ | raw ${JSON.stringify(r.pr)} vs mockyard ${JSON.stringify(r.pm)} |`));
    const section = [
      '<!-- bench/json-server:start (generated by node bench/json-server.mjs; edits inside are overwritten) -->',
      '## `mockyard db.json` — 10k-row db.json vs a raw node:http server holding it in memory (same run)',
      '',
      env,
      '',
      '| case | raw req/s | mockyard req/s | ratio | server CPU per request raw / mockyard = ratio | goal | | notes |',
      '|---|---:|---:|---:|---:|---:|---|---|',
      ...rows,
      '',
      `Raw reference: the db parsed once, an id → position Map, JSON.stringify of the item per GET; PATCH merges into a copy of the item, answers it and rewrites db.json (temp + rename) in the background, one rewrite at a time, coalesced. mockyard: the built CLI, \`mockyard db.json --quiet\` (json-server preset). After the run both files held every write (users/5000.age: raw ${check.raw}, mockyard ${check.mockyard}).`,
      '<!-- bench/json-server:end -->',
    ].join('\n');
    console.log(section);
    if (!a['no-write']) {
      const file = join(here, 'RESULTS.md');
      const old = await readFile(file, 'utf8');
      const re = /<!-- bench\/json-server:start[\s\S]*?<!-- bench\/json-server:end -->/;
      await writeFile(file, re.test(old) ? old.replace(re, section) : `${old.trimEnd()}\n\n${section}\n`);
    }
  } finally {
    await cleanup();
  }
}
