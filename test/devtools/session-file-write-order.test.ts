/**
 * A session's file edits from the page (`PUT files/<path>?session=<id>`) take their turn in the
 * same per-file order as that session's own writes (a REST POST to its collection): the page's
 * `If-Match` and its write see no session write in between. Before, the page's edit ran in a
 * queue of its own, so a POST stored between its check and its write was answered 201 and then
 * overwritten (the page's edit passed If-Match against the version before the POST). A real
 * server on 127.0.0.1 over a mocks folder on disk, real fetch.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { closeServers, startServer } from '../helpers/server.js';
import { makeTempDir, removeTempDirs } from '../helpers/temp-dir.js';

afterEach(async () => {
  await closeServers();
  await removeTempDirs();
});

const A = '/_mockyard/api';

it("a session's page edit and that session's POST never both pass with the POST lost", async () => {
  const dir = await makeTempDir();
  await writeFile(join(dir, 'todos.json'), JSON.stringify([{ id: 1, title: 'a' }]));
  const s = await startServer({ mock: { endpointPrefix: '/api', preset: 'json-server', logLevel: 'silent', fsDir: dir } });
  const lost: string[] = [];
  for (let round = 0; round < 40; round++) {
    const session = `s${round}`;
    const h = { 'x-mockyard-session': session, 'content-type': 'application/json' };
    const read = await fetch(`${s.url}${A}/files/todos.json?session=${session}`);
    const etag = read.headers.get('etag')!;
    const edited = [...((await read.json()) as Array<Record<string, unknown>>)].map((t) => ({ ...t, title: `${String(t.title)}!` }));
    const posts = Array.from({ length: 8 }, (_, i) => fetch(`${s.url}/api/todos`, { method: 'POST', headers: h, body: JSON.stringify({ title: `p${i}` }) }));
    const page = fetch(`${s.url}${A}/files/todos.json?session=${session}`, { method: 'PUT', headers: { 'content-type': 'application/json', 'if-match': etag }, body: JSON.stringify(edited) });
    const [put, ...posted] = await Promise.all([page, ...posts]);
    const final = (await (await fetch(`${s.url}/api/todos`, { headers: h })).json()) as Array<{ title: string }>;
    const titles = final.map((t) => t.title);
    for (const [i, r] of posted.entries()) {
      expect(r.status).toBe(201);
      if (!titles.includes(`p${i}`)) lost.push(`round ${round}: POST p${i} answered 201, page PUT ${put.status}, final ${JSON.stringify(titles)}`);
    }
  }
  expect(lost).toEqual([]);
});
