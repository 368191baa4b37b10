/**
 * The admin API's data listing over a db.json (`mock.db`), through a real node:http server: it
 * names the file whose keys the collections and objects are (`db`), so the devtools page says
 * what it saved truthfully ("Saved profile in db.json.": there is no profile.json); a folder of
 * files has no `db`.
 */
import { afterEach, expect, it } from 'vitest';
import { memoryFs } from '../../src/vfs/memory.js';
import { closeServers, startServer } from '../helpers/server.js';

afterEach(async () => {
  await closeServers();
});

const A = '/_mockyard/api';

it('GET data names the db.json its objects are keys of; a mocks folder names none', async () => {
  const fs = memoryFs({ 'data/db.json': { posts: [{ id: 1, title: 'hello' }], profile: { name: 'typicode' } } });
  const s = await startServer({ mock: { endpointPrefix: '/api', logLevel: 'silent', preset: 'json-server', fs, db: 'data/db.json' } });
  const list = await (await fetch(`${s.url}${A}/data`)).json();
  expect(list).toEqual({ scope: { session: null }, collections: [{ name: 'posts', count: 1 }], objects: ['profile'], db: 'db.json' });
  // The object the page saves through files/profile.json is db.json's key.
  const saved = await fetch(`${s.url}${A}/files/profile.json`, { method: 'PUT', headers: { 'content-type': 'application/json', 'if-match': '*' }, body: '{"name":"mockyard"}' });
  expect(saved.status).toBeLessThan(300);
  await expect.poll(async () => (JSON.parse(new TextDecoder().decode(await fs.read('data/db.json'))) as { profile: unknown }).profile).toEqual({ name: 'mockyard' });

  const folder = await startServer({ mock: { endpointPrefix: '/api', logLevel: 'silent', fs: memoryFs({ 'mocks/todos.json': [{ id: 1 }], 'mocks/config.json': { theme: 'dark' } }), fsDir: 'mocks' } });
  expect(await (await fetch(`${folder.url}${A}/data`)).json()).not.toHaveProperty('db');
});
