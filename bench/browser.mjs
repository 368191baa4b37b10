// Browser bench (`npm run bench:browser`, not part of the tests), in real Chromium:
//
//  1. Bundle size: a page using startWorker + indexedDbFs + both engines + one handler
//     (bench/browser-pages/mockyard.ts) vs a page with msw alone (msw-only.ts), each built on
//     its own with Vite (minified), JS gzipped at level 9.
//  2. Mocked requests/s through the service worker, sequential and 10-way concurrent, for a
//     small JSON GET (a file) and a filtered page of a 10k-item file, against msw with a trivial
//     handler returning the very same bytes, in the same run.
//
// Env: BENCH_N (requests per round, default 2000), BENCH_ROUNDS (default 3), CHROMIUM_PATH.
import { createServer } from 'node:http';
import { mkdir, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { createRequire, SourceMap } from 'node:module';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { build } from 'vite';
import { mockyardAliases } from '../playground/vite-aliases.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const pages = join(here, 'browser-pages');
const outRoot = join(here, 'out', 'browser');
const N = Number(process.env.BENCH_N ?? 2000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const require = createRequire(import.meta.url);
const workerScript = await readFile(require.resolve('msw/mockServiceWorker.js'));
const from = process.env.MOCKYARD_BENCH_SOURCE === 'src' ? 'src' : 'dist';

async function buildPage(name) {
  const outDir = join(outRoot, name);
  await build({
    root: pages,
    configFile: false,
    logLevel: 'warn',
    publicDir: false,
    resolve: { alias: mockyardAliases(from) },
    // Hidden source maps (no comment in the JS, so the measured bytes are the same) feed breakdown().
    build: { outDir, emptyOutDir: true, minify: true, manifest: true, sourcemap: 'hidden', chunkSizeWarningLimit: 2000, rollupOptions: { input: { [name]: join(pages, `${name}.html`) } } },
  });
  // The page's start-up JS: the entry chunk and everything it imports statically. Chunks reached
  // only through a dynamic import() (e.g. fflate, fetched by a collector that gzips its reads,
  // which the page's collector does not) are counted apart as `lazy`.
  const manifest = JSON.parse(await readFile(join(outDir, '.vite', 'manifest.json'), 'utf8'));
  const initial = new Set();
  const visit = (key) => {
    const chunk = manifest[key];
    if (!chunk || initial.has(chunk.file)) return;
    initial.add(chunk.file);
    for (const k of chunk.imports ?? []) visit(k);
  };
  for (const [key, chunk] of Object.entries(manifest)) if (chunk.isEntry) visit(key);
  let raw = 0;
  let gz = 0;
  const lazy = { raw: 0, gz: 0, files: [] };
  for (const f of await readdir(join(outDir, 'assets'))) {
    if (!f.endsWith('.js')) continue;
    const bytes = await readFile(join(outDir, 'assets', f));
    const z = gzipSync(bytes, { level: 9 }).length;
    if (initial.has(`assets/${f}`)) {
      raw += bytes.length;
      gz += z;
    } else {
      lazy.raw += bytes.length;
      lazy.gz += z;
      lazy.files.push(f);
    }
  }
  return { outDir, raw, gz, lazy, initial };
}

/** Where a source file's bytes are counted: mockyard's folders, npm packages, or unmapped (bundler runtime). */
const origins = new Map();
function originOf(source) {
  let origin = origins.get(source);
  if (origin) return origin;
  const pkg = source && /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(source);
  const own = source && /(?:^|\/)(?:dist|src)\/(.+)\.[jt]s$/.exec(source);
  if (!source) origin = '(unmapped: bundler runtime, Vite preload helper)';
  else if (pkg) origin = pkg[1];
  else if (own) {
    const parts = own[1].split('/');
    origin = `mockyard ${parts[0] === 'engine' && parts.length > 2 ? `engine/${parts[1]}` : parts[0]}`;
  } else origin = source.includes('browser-pages/') ? `the page itself (${source.replace(/^.*browser-pages\//, '')})` : source;
  origins.set(source, origin);
  return origin;
}

/**
 * The start-up JS of a built page by origin, from its source maps: for each origin, the minified
 * bytes it owns and its marginal gzip size (how much smaller the gzipped chunk would be without
 * those bytes; marginals do not add up exactly to the total, gzip shares context).
 */
async function breakdown(b) {
  const out = new Map();
  for (const file of b.initial) {
    const code = await readFile(join(b.outDir, file), 'utf8');
    const map = new SourceMap(JSON.parse(await readFile(join(b.outDir, `${file}.map`), 'utf8')));
    const owner = new Array(code.length);
    for (let k = 0, line = 0, col = 0; k < code.length; k++) {
      owner[k] = originOf(map.findEntry(line, col).originalSource);
      if (code.charCodeAt(k) === 10) {
        line++;
        col = 0;
      } else col++;
    }
    const total = gzipSync(code, { level: 9 }).length;
    for (const origin of new Set(owner)) {
      let without = '';
      let min = 0;
      for (let k = 0; k < code.length; k++) {
        if (owner[k] === origin) min++;
        else without += code[k];
      }
      const o = out.get(origin) ?? { min: 0, gz: 0 };
      o.min += min;
      o.gz += total - gzipSync(without, { level: 9 }).length;
      out.set(origin, o);
    }
  }
  return out;
}

const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };
async function serve(dir) {
  const server = createServer(async (req, res) => {
    const path = new URL(req.url, 'http://x').pathname;
    if (path === '/mockServiceWorker.js') {
      res.setHeader('content-type', 'text/javascript');
      return res.end(workerScript);
    }
    const file = join(dir, path === '/' ? 'index.html' : path.slice(1));
    if (!file.startsWith(dir) || !(await stat(file).catch(() => null))?.isFile()) {
      res.statusCode = 404;
      return res.end();
    }
    res.setHeader('content-type', TYPES[extname(file)] ?? 'application/octet-stream');
    res.end(await readFile(file));
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((r) => server.close(r)) };
}

/** Runs in the page: N fetches of `url`, `concurrency` at a time; returns requests/s. */
async function measure(page, url, concurrency) {
  return page.evaluate(async ([u, n, c]) => {
    const one = async () => {
      const r = await fetch(u);
      await r.arrayBuffer();
      if (!r.ok) throw new Error(`HTTP ${r.status} for ${u}`);
    };
    for (let i = 0; i < 100; i++) await one(); // warm-up
    let left = n;
    const t0 = performance.now();
    await Promise.all(Array.from({ length: c }, async () => {
      while (left-- > 0) await one();
    }));
    return (n / (performance.now() - t0)) * 1000;
  }, [url, N, concurrency]);
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

await rm(outRoot, { recursive: true, force: true });
await mkdir(outRoot, { recursive: true });
const mswBuild = await buildPage('msw-only');
const mswWsBuild = await buildPage('msw-ws');
const myBuild = await buildPage('mockyard');
const mswSite = await serve(mswBuild.outDir);
const mySite = await serve(myBuild.outDir);

const userDataDir = join(outRoot, 'profile');
const context = await chromium.launchPersistentContext(userDataDir, {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});

try {
  const my = await context.newPage();
  await my.goto(`${mySite.url}/mockyard.html`);
  if ((await my.evaluate(() => window.ready)) !== 'ok') throw new Error('mockyard page did not start');
  const msw = await context.newPage();
  await msw.goto(`${mswSite.url}/msw-only.html`);
  if ((await msw.evaluate(() => window.ready)) !== 'ok') throw new Error('msw page did not start');

  const cases = [
    { name: 'small JSON GET', path: '/api/small', raw: 'small' },
    { name: 'filtered page of 10k items', path: '/api/items?status=done&limit=20&skip=100', raw: 'items' },
  ];
  // The msw baseline answers the very bytes and headers mockyard answered.
  for (const c of cases) {
    const answer = await my.evaluate(async (p) => {
      const r = await fetch(p);
      const headers = {};
      for (const [k, v] of r.headers) if (k !== 'content-length') headers[k] = v;
      return { text: await r.text(), headers };
    }, c.path);
    await msw.evaluate(([name, a]) => { window.bodies[name] = a; }, [c.raw, answer]);
    c.bytes = new TextEncoder().encode(answer.text).length;
  }

  const rows = [];
  for (const c of cases) {
    for (const concurrency of [1, 10]) {
      const mine = [];
      const base = [];
      for (let round = 0; round < ROUNDS; round++) {
        base.push(await measure(msw, `/raw/${c.raw}`, concurrency));
        mine.push(await measure(my, c.path, concurrency));
      }
      const m = median(mine);
      const b = median(base);
      rows.push({ case: `${c.name} (${c.bytes} B)`, mode: concurrency === 1 ? 'sequential' : '10 concurrent', mockyard: m, msw: b, ratio: m / b });
    }
  }

  const lines = [];
  const log = (line) => {
    console.log(line);
    lines.push(line);
  };
  const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
  log(`\nBundle (Vite ${require('vite/package.json').version}, minified; JS gzip -9; mockyard from ${from}/):`);
  log(`  msw alone                                   ${kb(mswBuild.raw).padStart(9)} min  ${kb(mswBuild.gz).padStart(8)} gz`);
  log(`  mockyard/sw page (startWorker, indexedDbFs,  ${kb(myBuild.raw).padStart(9)} min  ${kb(myBuild.gz).padStart(8)} gz`);
  log('    both engines, one handler)');
  log(`  msw with http + ws.link                     ${kb(mswWsBuild.raw).padStart(9)} min  ${kb(mswWsBuild.gz).padStart(8)} gz`);
  log(`  mockyard over msw alone                     ${kb(myBuild.raw - mswBuild.raw).padStart(9)} min  ${kb(myBuild.gz - mswBuild.gz).padStart(8)} gz  (goal ≤ 40 KB gz)`);
  log(`  mockyard over msw http + ws.link            ${kb(myBuild.raw - mswWsBuild.raw).padStart(9)} min  ${kb(myBuild.gz - mswWsBuild.gz).padStart(8)} gz`);
  for (const b of [mswBuild, mswWsBuild, myBuild]) {
    if (b.lazy.files.length) log(`  + lazy chunks of ${b.outDir.split('/').pop()} (not loaded by the page) ${kb(b.lazy.raw)} min  ${kb(b.lazy.gz)} gz: ${b.lazy.files.map((f) => f.replace(/-[\w-]{8}\.js$/, '')).join(', ')}`);
  }
  // The start-up JS of the mockyard page by origin (source maps), next to the msw-alone page.
  const mine = await breakdown(myBuild);
  const base = await breakdown(mswBuild);
  const rowsBy = [...mine].filter(([origin]) => !base.has(origin) || origin.startsWith('(unmapped')).sort((a, b) => b[1].gz - a[1].gz);
  log('Start-up JS of the mockyard page by origin (minified bytes; marginal gzip = how much the gzipped JS shrinks without it):');
  for (const [origin, o] of rowsBy) {
    const note = base.has(origin) ? ` (msw alone: ${kb(base.get(origin).gz)} gz)` : '';
    log(`  ${origin.padEnd(52)} ${kb(o.min).padStart(9)} min ${kb(o.gz).padStart(8)} gz${note}`);
  }
  let mswExtra = 0;
  for (const [origin, o] of mine) if (base.has(origin) && !origin.startsWith('(unmapped')) mswExtra += o.gz - base.get(origin).gz;
  log(`  ${'msw and its dependencies, beyond the msw-alone page'.padEnd(52)} ${''.padStart(9)}     ${kb(mswExtra).padStart(8)} gz (ws.link: WebSocket interception)`);
  log(`\nMocked requests/s through the service worker (N=${N}, median of ${ROUNDS} rounds, same run):`);
  log('  case                                   mode            mockyard      msw      ratio');
  for (const r of rows) {
    log(`  ${r.case.padEnd(38)} ${r.mode.padEnd(14)} ${r.mockyard.toFixed(0).padStart(9)} ${r.msw.toFixed(0).padStart(9)}   ${r.ratio.toFixed(2)}×`);
  }

  // Results block in bench/RESULTS.md (replaced on every run).
  const results = join(here, 'RESULTS.md');
  const current = await readFile(results, 'utf8').catch(() => '# Benchmarks\n');
  const section = [
    '<!-- bench/browser:start (generated by node bench/browser.mjs) -->',
    '## Browser mode — mockyard/sw in Chromium vs msw (same run)',
    '',
    `${new Date().toISOString()}; Chromium headless (system package), load average ${loadavg().map((l) => l.toFixed(2)).join(' ')} on this 2-core machine (shared).`,
    'Requests are `fetch()` calls from the page answered through the MSW service worker; the msw baseline is a trivial',
    'handler returning the exact bytes and headers mockyard returned. Bundle: each page built alone with Vite, JS gzip -9;',
    'the start-up JS (entry + static imports, per the Vite manifest); lazy chunks the page never loads are listed apart.',
    '',
    '```',
    ...lines.map((l) => l.replace(/^\n/, '')),
    '```',
    '',
    'Where the bundle goes: the by-origin table above (generated from the build\'s source maps). What the page does not',
    'use at start-up is split into chunks fetched on demand, so it is not in the start-up JS: JSON Patch (rfc6902, first',
    'JSON Patch request), the collector\'s gzip read encoder and fflate (only with `readCompression: \'gzip\'`; the page\'s',
    'collector answers plain JSON, which the service worker would otherwise have to gunzip), its WebSocket protocol',
    '(first socket to `/_tracker/ws`), its segment files (only with `storage`), the gunzip of ingest bodies (first gzip',
    'body, through DecompressionStream), and the mock API\'s WebSocket layer (only with `enableWs`, then fetched at',
    'start-up and awaited by `startWorker`). msw\'s `ws.link` stays in the start-up JS: the collector always serves',
    '`/_tracker/ws`, and the link must be installed before the page opens a socket. The unmapped part is mostly Vite\'s',
    'preload helper, which Vite adds to any page with a dynamic import (also when mockyard is installed in',
    'node_modules); it is counted.',
    '<!-- bench/browser:end -->',
  ].join('\n');
  const re = /<!-- bench\/browser:start[\s\S]*?<!-- bench\/browser:end -->/;
  await writeFile(results, re.test(current) ? current.replace(re, section) : `${current.trimEnd()}\n\n${section}\n`);
  console.log(`\nwritten to ${results}`);
} finally {
  await context.close();
  await Promise.all([mswSite.close(), mySite.close()]);
}
