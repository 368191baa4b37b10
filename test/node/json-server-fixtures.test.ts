/**
 * Every request of json-server's READMEs (0.17.4 and 1.0.0-beta.15) and the behaviours a
 * json-server user notices, sent to a real `mockyard` process started with json-server's own
 * command line (only `json-server` replaced by `mockyard`), compared with the answers json-server
 * itself gave (test/fixtures/json-server/<session>.json, recorded by
 * scripts/record-json-server-fixtures.mjs; the version is in each fixture). The answers mockyard
 * gives differently on purpose are marked in requests.mjs and listed in docs/json-server.md.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { compileSources } from '../helpers/built-src.js';
import { makeTempDir, removeTempDirs } from '../helpers/temp-dir.js';
// @ts-expect-error: a plain ES module shared with the recorder script
import { SESSIONS, send, writeSessionFiles } from '../fixtures/json-server/requests.mjs';

interface Answer { status: number; headers: Record<string, string>; body: unknown }
interface Request { method: string; path: string; type?: string; body?: unknown; headers?: Record<string, string>; differs?: 'id' | 'body' | 'status'; mockyard?: number; mockyardBody?: unknown }
interface Session { name: string; version: string; args: string[]; requests: Request[]; headers?: string[]; db: unknown }
interface Fixture { version: string; requests: Array<Request & { answer: Answer }>; dbAfter: unknown }

const fixtures = resolve(import.meta.dirname, '..', 'fixtures', 'json-server');
let cli: string;
const children: ChildProcess[] = [];

beforeAll(() => {
  cli = join(compileSources('json-server-fixtures'), 'node', 'cli.js');
}, 120_000);
afterEach(async () => {
  await Promise.all(children.splice(0).map((c) => new Promise<void>((res) => {
    if (c.exitCode !== null) return res();
    c.once('exit', () => res());
    c.kill('SIGTERM');
  })));
  await removeTempDirs();
});
afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
});

/** `mockyard` + json-server's arguments in `dir`; resolves with its URL once it listens. */
export function startMockyard(cliPath: string, args: string[], dir: string): Promise<{ url: string; output: () => string; child: ChildProcess }> {
  const child = spawn(process.execPath, [cliPath, ...args], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let out = '';
  return new Promise((res, rej) => {
    const onData = (d: Buffer) => {
      out += d;
      const m = /listening on (http:\/\/[^\s]+)/.exec(out);
      if (m && out.includes('Press Ctrl+C')) res({ url: m[1]!, output: () => out, child });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => rej(new Error(`mockyard exited ${code}: ${out}`)));
  });
}

/** A JSONP body's JSON (`/**\/ typeof cb === 'function' && cb(…);`), or the body itself. */
function unwrap(body: unknown): unknown {
  if (typeof body !== 'string') return body;
  const m = /^\/\*\*\/ typeof (\w+) === 'function' && \1\(([\s\S]*)\);$/.exec(body.trim());
  return m ? { jsonp: m[1], data: JSON.parse(m[2]!) } : body;
}

function withoutIds(body: unknown): unknown {
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const { id: _id, ...rest } = body as Record<string, unknown>;
    return rest;
  }
  return body;
}

const mediaType = (v: string | undefined) => v?.split(';')[0]!.trim();

/** The Link header's relations with their paths and queries (json-server names its host `localhost`). */
function links(v: string | undefined): Record<string, string> | undefined {
  if (!v) return undefined;
  const out: Record<string, string> = {};
  for (const m of v.matchAll(/<([^>]+)>;\s*rel="(\w+)"/g)) {
    const u = new URL(m[1]!);
    out[m[2]!] = `${u.pathname}?${[...u.searchParams].map(([k, x]) => `${k}=${x}`).sort().join('&')}`;
  }
  return out;
}

describe.each(SESSIONS as Session[])('json-server session $name', (session) => {
  it(`answers as json-server ${session.version} did (only the differences requests.mjs marks)`, async () => {
    const fixture = JSON.parse(readFileSync(join(fixtures, `${session.name}.json`), 'utf8')) as Fixture;
    expect(fixture.requests.map((r) => `${r.method} ${r.path}`)).toEqual(session.requests.map((r) => `${r.method} ${r.path}`));
    const dir = await makeTempDir();
    await writeSessionFiles(dir, session);
    const { url, child } = await startMockyard(cli, [...session.args, '--port', '0'], dir);
    for (const [i, r] of session.requests.entries()) {
      const label = `${r.method} ${r.path}`;
      const theirs = fixture.requests[i]!.answer;
      const ours = (await send(url, r)) as Answer;
      if (r.differs === 'status') {
        expect.soft(ours.status, label).toBe(r.mockyard);
        continue;
      }
      expect.soft(ours.status, label).toBe(theirs.status);
      if (r.mockyardBody !== undefined) expect.soft(ours.body, `${label} (mockyard's own answer)`).toEqual(r.mockyardBody);
      if (r.differs === 'body') continue;
      const body = (b: unknown) => (r.differs === 'id' ? withoutIds(unwrap(b)) : unwrap(b));
      expect.soft(body(ours.body), label).toEqual(body(theirs.body));
      expect.soft(mediaType(ours.headers['content-type']), `${label} content-type`).toBe(mediaType(theirs.headers['content-type']));
      if (theirs.headers['x-total-count'] !== undefined) expect.soft(ours.headers["x-total-count"], `${label} X-Total-Count`).toBe(theirs.headers['x-total-count']);
      // 0.17 sends none on a single object (`GET /profile`); mockyard's query answers keep theirs (docs/json-server.md).
      else if (r.method === 'GET' && !r.path.includes('?') && theirs.status === 200 && theirs.body !== null && typeof theirs.body === 'object' && !Array.isArray(theirs.body)) expect.soft(ours.headers['x-total-count'], `${label} X-Total-Count on an object`).toBeUndefined();
      expect.soft(links(ours.headers.link), `${label} Link`).toEqual(links(theirs.headers.link));
      if (theirs.headers.location !== undefined) expect(new URL(ours.headers.location!, url).pathname, `${label} Location`).toBe(new URL(theirs.headers.location).pathname);
      // 0.17's no-cache headers ("No cache for IE" middleware); its static files have express.static's own.
      if (theirs.headers.pragma !== undefined) for (const h of ['cache-control', 'pragma', 'expires']) expect.soft(ours.headers[h], `${label} ${h}`).toBe(theirs.headers[h]);
      // CORS headers matter to a browser, which always sends an Origin (0.17 also sends them without one).
      for (const h of session.headers ?? []) if (!h.startsWith('access-control-') || r.headers?.Origin !== undefined) expect.soft(ours.headers[h], `${label} ${h}`).toBe(theirs.headers[h]);
    }
    // What the writes left in db.json once the server stopped (1.x adds a "$schema" key and draws ids).
    child.kill('SIGTERM');
    await new Promise((res) => child.once('exit', res));
    const saved = JSON.parse(readFileSync(join(dir, 'db.json'), 'utf8'));
    if (session.version === '0.17' && !session.requests.some((r) => r.differs === 'status' || r.differs === 'id')) expect(saved).toEqual(fixture.dbAfter);
  }, 60_000);
});
