#!/usr/bin/env node
/**
 * Records json-server's own answers to the requests of test/fixtures/json-server/requests.mjs
 * into test/fixtures/json-server/<session>.json (the test compares mockyard with them).
 *
 *   mkdir /tmp/js017 && cd /tmp/js017 && npm init -y && npm i json-server@0.17
 *   mkdir /tmp/js1 && cd /tmp/js1 && npm init -y && npm i json-server@1.0.0-beta.15
 *   node scripts/record-json-server-fixtures.mjs /tmp/js017/node_modules/json-server /tmp/js1/node_modules/json-server [session,…]
 *
 * Each session runs json-server (its CLI, as a user starts it) in a temp folder holding a fresh
 * copy of the session's data and files, on a free port, sends the requests one after another and
 * keeps status, the headers a client reads, the body, and db.json as left after the session.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SESSIONS, send, writeSessionFiles } from '../test/fixtures/json-server/requests.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, '..', 'test', 'fixtures', 'json-server');
const [pkg017, pkg1x] = process.argv.slice(2);
if (!pkg017 || !pkg1x) {
  console.error('usage: record-json-server-fixtures.mjs <json-server 0.17 package dir> <json-server 1.x package dir>');
  process.exit(2);
}

function freePort() {
  return new Promise((res) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => res(port));
    });
  });
}

async function run(session, pkgDir) {
  const pkg = JSON.parse(await readFile(join(pkgDir, 'package.json'), 'utf8'));
  const bin = join(pkgDir, typeof pkg.bin === 'string' ? pkg.bin : pkg.bin['json-server']);
  const dir = await mkdtemp(join(tmpdir(), 'json-server-fixture-'));
  await writeSessionFiles(dir, session);
  const port = await freePort();
  const child = spawn(process.execPath, [bin, ...session.args, '--port', String(port)], { cwd: dir, stdio: ['pipe', 'pipe', 'pipe'] });
  let log = '';
  child.stdout.on('data', (d) => (log += d));
  child.stderr.on('data', (d) => (log += d));
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    try {
      await fetch(`${base}/db.json-server-probe`);
      break;
    } catch {
      if (i > 100 || child.exitCode !== null) throw new Error(`json-server did not start: ${log}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const answers = [];
  for (const r of session.requests) answers.push({ ...r, answer: await send(base, r) });
  // json-server 0.17 writes db.json after answering: wait until the file is quiet.
  await new Promise((r) => setTimeout(r, 500));
  const dbAfter = JSON.parse(await readFile(join(dir, 'db.json'), 'utf8'));
  child.kill('SIGTERM');
  await rm(dir, { recursive: true, force: true });
  const fixture = {
    peer: 'json-server',
    version: pkg.version,
    command: `json-server ${session.args.join(' ')} --port N`,
    recorded: new Date().toISOString().slice(0, 10),
    session: session.name,
    requests: answers,
    dbAfter,
  };
  await writeFile(join(out, `${session.name}.json`), `${JSON.stringify(fixture, null, 2)}\n`);
  console.log(`${session.name}: ${answers.length} answers from json-server ${pkg.version}`);
}

// A third argument records only the sessions it names (comma list): `… edges-0.17,missing-db-0.17`.
const only = process.argv[4]?.split(',');
for (const session of SESSIONS) if (!only || only.includes(session.name)) await run(session, session.version === '0.17' ? pkg017 : pkg1x);
