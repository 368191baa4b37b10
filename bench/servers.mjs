// The two servers bench/run.mjs compares, each started in its own process:
//   node bench/servers.mjs raw      --dir DIR   raw node:http baselines (below)
//   node bench/servers.mjs mockyard --dir DIR [--dist dist]   serve() with the mock API on DIR
// Each prints one JSON line {"port":N} when listening and exits on SIGTERM.
//
// The raw server is the "physical upper bound" for each case:
//   GET  /api/<name>                 the file's bytes, read once at start-up, sent from memory
//   GET  /api/<name>?role=&age=&sort=&order=&skip=&limit=
//                                    the array parsed once at start-up; filter role eq, age gte,
//                                    optional sort, skip/limit; X-Total-Count = matches
//   PATCH /api/<name>                RFC 7396 merge in memory, file written atomically (temp +
//                                    rename), writes coalesced while one is under way
//   GET  /api/hello                  JSON.stringify of a small object per request
import { createServer } from 'node:http';
import { readFile, readdir, rename, writeFile } from 'node:fs/promises';
import { join, relative, resolve, sep, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const here = dirname(fileURLToPath(import.meta.url));
const { values: a, positionals } = parseArgs({ allowPositionals: true, options: {
  dir: { type: 'string' }, dist: { type: 'string', default: resolve(here, '../dist') },
} });
export const HELLO = { id: 1, name: 'Ada Lovelace', roles: ['admin', 'editor'], active: true };
process.on('SIGTERM', () => process.exit(0));

async function listJson(dir) {
  const out = [];
  for (const ent of await readdir(dir, { withFileTypes: true })) {
    const p = join(dir, ent.name);
    if (ent.isDirectory()) out.push(...await listJson(p));
    else if (ent.name.endsWith('.json')) out.push(p);
  }
  return out;
}

async function raw(dir) {
  const files = new Map(); // "/users/1" -> { file, bytes, value, writing, next }
  for (const file of await listJson(dir)) {
    const key = '/' + relative(dir, file).split(sep).join('/').replace(/\.json$/, '');
    const bytes = await readFile(file);
    files.set(key, { file, bytes, value: JSON.parse(bytes.toString('utf8')), writing: null, next: null });
  }
  const QUERY = ['role', 'age', 'sort', 'order', 'skip', 'limit'];
  const send = (res, status, body, extra) => {
    res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': String(body.length), ...extra });
    res.end(body);
  };
  const merge = (target, patch) => {
    if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) return patch;
    const out = target && typeof target === 'object' && !Array.isArray(target) ? { ...target } : {};
    for (const [k, v] of Object.entries(patch)) {
      if (k === '__proto__' || k === 'constructor' || k === 'prototype') continue;
      if (v === null) delete out[k];
      else out[k] = merge(out[k], v);
    }
    return out;
  };
  let seq = 0;
  const persist = (entry) => {
    const start = () => {
      const tmp = `${entry.file}.${process.pid}.${++seq}.tmp`;
      const p = writeFile(tmp, entry.bytes).then(() => rename(tmp, entry.file)).finally(() => { if (entry.writing === p) entry.writing = null; });
      entry.writing = p;
      return p;
    };
    if (entry.next) return entry.next;
    if (entry.writing) {
      entry.next = entry.writing.catch(() => {}).then(() => { entry.next = null; return start(); });
      return entry.next;
    }
    return start();
  };
  const hello = (res) => {
    const body = JSON.stringify(HELLO);
    res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': String(Buffer.byteLength(body)) });
    res.end(body);
  };
  const server = createServer((req, res) => {
    const url = req.url;
    const qi = url.indexOf('?');
    const path = qi === -1 ? url : url.slice(0, qi);
    if (path === '/api/hello') return hello(res);
    const entry = path.startsWith('/api/') ? files.get(path.slice(4)) : undefined;
    if (!entry) return send(res, 404, Buffer.from('{"error":"Not Found"}'));
    if (req.method === 'GET') {
      const q = qi === -1 ? null : new URLSearchParams(url.slice(qi + 1));
      if (!q || !QUERY.some((k) => q.has(k)) || !Array.isArray(entry.value)) return send(res, 200, entry.bytes);
      const role = q.get('role');
      const age = q.has('age') ? Number(q.get('age')) : null;
      const items = entry.value.filter((u) => (role === null || u.role === role) && (age === null || u.age >= age));
      const total = items.length;
      const sort = q.get('sort');
      if (sort) {
        const dir = ['desc', '-1'].includes(String(q.get('order')).toLowerCase()) ? -1 : 1;
        items.sort((x, y) => (x[sort] < y[sort] ? -dir : x[sort] > y[sort] ? dir : 0));
      }
      const skip = Number(q.get('skip') ?? 0) || 0;
      const limit = q.has('limit') ? Number(q.get('limit')) : items.length;
      return send(res, 200, Buffer.from(JSON.stringify(items.slice(skip, skip + limit))), { 'X-Total-Count': String(total) });
    }
    if (req.method === 'PATCH') {
      const chunks = [];
      req.on('data', (c) => chunks.push(c));
      req.on('end', () => {
        let patch;
        try { patch = JSON.parse(Buffer.concat(chunks).toString('utf8')); } catch { return send(res, 400, Buffer.from('{"error":"bad json"}')); }
        entry.value = merge(entry.value, patch);
        entry.bytes = Buffer.from(JSON.stringify(entry.value));
        const body = entry.bytes;
        persist(entry).then(() => send(res, 200, body), () => send(res, 500, Buffer.from('{"error":"write failed"}')));
      });
      return;
    }
    send(res, 405, Buffer.from('{"error":"Method Not Allowed"}'));
  });
  server.keepAliveTimeout = 65_000;
  server.listen(0, '127.0.0.1', () => console.log(JSON.stringify({ port: server.address().port })));
}

async function mockyard(dir, dist) {
  const { serve } = await import(pathToFileURL(join(dist, 'node', 'index.js')).href);
  const server = await serve({
    port: 0,
    logLevel: 'error',
    mock: {
      endpointPrefix: '/api',
      fsDir: dir,
      logLevel: 'error',
      pagination: { GET: { type: 'query-param', limit: 'limit', skip: 'skip', sort: 'sort', order: 'order' } },
      filters: { GET: { type: 'query-param', filters: [{ key: 'role', valueType: 'string', comparison: 'eq' }, { key: 'age', valueType: 'number', comparison: 'gte' }] } },
      handlers: [{ pattern: '/hello', method: 'GET', handle: (req, res) => res.json(HELLO) }],
    },
  });
  server.server.keepAliveTimeout = 65_000;
  console.log(JSON.stringify({ port: server.port }));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const role = positionals[0];
  if (!a.dir || !['raw', 'mockyard'].includes(role)) {
    console.error('usage: node bench/servers.mjs raw|mockyard --dir DIR [--dist dist]');
    process.exit(2);
  }
  if (role === 'raw') await raw(resolve(a.dir));
  else await mockyard(resolve(a.dir), resolve(a.dist));
}
