/**
 * The collector's requests in the request journal (src/devtools/journaled-engine.ts),
 * through a real node:http server: an ingest (plain and gzip) and a read show up in
 * `GET /_mockyard/api/requests` answered by the collector, with `X-Tracker-Key` redacted, the body
 * the collector read shown (the gzip one by size only), the CLI's double assembly journaling once,
 * and no journal at all with a collector only.
 */
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { memoryFs } from '../../src/vfs/memory.js';
import { nodeHost } from '../../src/node/engines.js';
import { closeServers, startServer } from '../helpers/server.js';

afterEach(() => closeServers());

const A = '/_mockyard/api';
const KEY = 'tk-secret-123';
const mock = () => ({ endpointPrefix: '/api', logLevel: 'silent' as const, fs: memoryFs({ 'users.json': '[]' }) });
const tracker = { appId: 'j', logLevel: 'silent' as const, apiKey: KEY };
const batch = (type: string) => JSON.stringify({ type: 'ingest', events: [{ id: '', timestamp: new Date().toISOString(), type }] });
const entries = async (url: string, query = '') => ((await (await fetch(`${url}${A}/requests${query}`)).json()) as { entries: any[] }).entries;

describe('the collector in the request journal', () => {
  it('journals ingests and reads with the key redacted and the collector as what answered', async () => {
    const s = await startServer({ mock: mock(), tracker });
    const headers = { 'Content-Type': 'application/json', 'X-Tracker-Key': KEY };
    const plainBody = batch('plain');
    const zippedBody = gzipSync(batch('zipped'));
    expect((await fetch(`${s.url}/_tracker/events`, { method: 'POST', headers, body: plainBody })).status).toBe(200);
    expect((await fetch(`${s.url}/_tracker/events`, { method: 'POST', headers: { ...headers, 'Content-Encoding': 'gzip' }, body: zippedBody })).status).toBe(200);
    const since = new Date(Date.now() - 60_000).toISOString();
    const until = new Date(Date.now() + 60_000).toISOString();
    expect((await fetch(`${s.url}/_tracker?since=${since}&until=${until}`, { headers: { 'X-Tracker-Key': KEY } })).status).toBe(200);
    expect((await fetch(`${s.url}/_tracker/events`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Tracker-Key': 'wrong' }, body: batch('refused') })).status).toBe(401);
    await fetch(`${s.url}/api/users`);

    const list = await entries(s.url);
    expect(list.map((e) => `${e.method} ${e.url.split('?')[0]} ${e.status} ${e.answeredBy?.layer} ${e.answeredBy?.detail}`)).toEqual([
      'GET /api/users 200 files users.json',
      'POST /_tracker/events 401 collector /events',
      'GET /_tracker 200 collector /',
      'POST /_tracker/events 200 collector /events',
      'POST /_tracker/events 200 collector /events',
    ]);
    const [, refused, read, zipped, plain] = list;
    for (const e of [refused, read, zipped, plain]) expect(e.request.headers['x-tracker-key']).toBe('[redacted]');
    expect(JSON.stringify(list)).not.toContain(KEY);
    expect(JSON.stringify(list)).not.toContain('wrong');
    expect(plain.request.body).toEqual({ captured: true, size: plainBody.length, text: plainBody, truncated: false });
    expect(zipped.request.body).toEqual({ captured: true, size: zippedBody.length });
    expect(plain.response.body.text).toBe('{"ok":true,"saved":1}');
    expect(read.response.headers['content-type']).toContain('application/json');
    // The filters and the live list work for them as for the mock API's own.
    expect((await entries(s.url, '?path=/_tracker&status=4xx')).map((e) => e.status)).toEqual([401]);
  });

  it("one host's engines served by another host journal each request once", async () => {
    const resolved = await nodeHost({ mock: mock(), tracker: { appId: 'j', logLevel: 'silent' } });
    try {
      const s = await startServer({ engines: resolved.engines });
      await fetch(`${s.url}/_tracker/ping`);
      expect((await entries(s.url)).map((e) => e.url)).toEqual(['/_tracker/ping']);
    } finally {
      await resolved.close();
    }
  });

  it('with a collector only there is no journal: the admin API says so', async () => {
    const s = await startServer({ tracker: { appId: 'j', logLevel: 'silent' } });
    expect((await fetch(`${s.url}/_tracker/ping`)).status).toBe(200);
    const r = await fetch(`${s.url}${A}/requests`);
    expect(r.status).toBe(404);
    expect(((await r.json()) as { message: string }).message).toBe('No mock API is configured on this host');
  });
});
