/**
 * The admin API's HAR download of a recording started at run time (GET record/har): recorded
 * through a real upstream on 127.0.0.1, downloaded, written to a file and served by the built
 * `mockyard --har FILE` in another process, with the upstream gone.
 */
import { createServer } from 'node:http';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { compileSources } from '../helpers/built-src.js';
import { startCli, stopCliProcesses } from '../helpers/cli-process.js';
import { closeServers, startServer } from '../helpers/server.js';
import { makeTempDir, removeTempDirs } from '../helpers/temp-dir.js';

const A = '/_mockyard/api';
let cli: string;
beforeAll(() => {
  cli = join(compileSources('admin-record'), 'node', 'cli.js');
}, 120_000);
afterEach(async () => {
  await stopCliProcesses();
  await closeServers();
  await removeTempDirs();
});

describe('admin API: record/har', () => {
  it('downloads the recording as a HAR 1.2 file that mockyard --har replays', async () => {
    const upstream = createServer((req, res) => {
      if (req.method === 'POST') {
        res.writeHead(201, { 'content-type': 'application/json', 'x-made': 'yes' });
        res.end(JSON.stringify({ id: 7 }));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json', 'x-upstream': 'one' });
      res.end(JSON.stringify({ path: req.url, items: [1, 2] }));
    });
    await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
    const target = `http://127.0.0.1:${(upstream.address() as { port: number }).port}`;
    const dir = await makeTempDir();
    const s = await startServer({ mock: { endpointPrefix: '/api', logLevel: 'silent', fsDir: dir, proxy: { target } } });
    try {
      expect((await fetch(`${s.url}${A}/record/har`)).status).toBe(404); // nothing recorded yet
      await fetch(`${s.url}${A}/record`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{"recording":true}' });
      expect(await (await fetch(`${s.url}/api/things?page=2`)).json()).toEqual({ path: '/api/things?page=2', items: [1, 2] });
      expect((await fetch(`${s.url}/api/things`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"x"}' })).status).toBe(201);
      await expect.poll(async () => ((await (await fetch(`${s.url}${A}/record`)).json()) as { entries: unknown[] }).entries.length).toBe(2);
      await fetch(`${s.url}${A}/record`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{"recording":false}' });
      const res = await fetch(`${s.url}${A}/record/har`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="recording-.*\.har"$/);
      const text = await res.text();
      const har = JSON.parse(text) as { log: { version: string; creator: { name: string }; entries: Array<{ request: { method: string; url: string } }> } };
      expect(har.log.version).toBe('1.2');
      expect(har.log.entries.map((e) => `${e.request.method} ${new URL(e.request.url).pathname}${new URL(e.request.url).search}`)).toEqual(['GET /api/things?page=2', 'POST /api/things']);
      expect((await fetch(`${s.url}${A}/record/har`, { method: 'PUT' })).status).toBe(405);
      await new Promise((r) => upstream.close(r));

      const served = await makeTempDir();
      await writeFile(join(served, 'recording.har'), text);
      const { url } = await startCli(cli, ['--har', 'recording.har', '--port', '0', '--log-level', 'warn'], served);
      const got = await fetch(`${url}/api/things?page=2`);
      expect(got.status).toBe(200);
      expect(got.headers.get('x-upstream')).toBe('one');
      expect(await got.json()).toEqual({ path: '/api/things?page=2', items: [1, 2] });
      const made = await fetch(`${url}/api/things`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"x"}' });
      expect(made.status).toBe(201);
      expect(await made.json()).toEqual({ id: 7 });
    } finally {
      upstream.close();
    }
  });
});
