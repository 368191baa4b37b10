/**
 * The store's change feed when the mocks folder appears after start, through a real node:http
 * server on disk: a listener that came while there was no folder (a `users.updated` webhook rule
 * subscribes at start) gets a feed of announced changes only; a listener that comes once the
 * folder is there gets the files' feed, and hears a write to `users.json` (an early listener
 * must not stand in for the files' feed).
 */
import { afterEach, expect, it } from 'vitest';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { StoreChange } from '../../../src/engine/store-contract/contract.js';
import { closeServers, startServer } from '../../helpers/server.js';
import { makeTempDir, removeTempDirs } from '../../helpers/temp-dir.js';

afterEach(async () => {
  await closeServers();
  await removeTempDirs();
});

it('a listener that comes after the folder appeared hears a store write, though one subscribed while it was missing', async () => {
  const root = await makeTempDir();
  const dir = join(root, 'later', 'mocks');
  const heard: StoreChange[] = [];
  const server = await startServer({
    mock: {
      endpointPrefix: '/api',
      fsDir: dir,
      logLevel: 'silent',
      webhooks: [{ on: 'users.updated', url: 'http://127.0.0.1:9/hooks', retry: false }],
      handlers: [
        { method: 'POST', pattern: '/listen', handle: async (req, res) => { await req.app.store.subscribe((c) => heard.push(c)); res.json({ ok: true }); } },
        { method: 'POST', pattern: '/rename', handle: async (req, res) => res.json(await req.app.store.update('users', 7, { name: 'renamed' })) },
      ],
    },
  });
  await new Promise((r) => setTimeout(r, 300)); // the webhook rule's subscription is taken while the folder is missing
  expect((await fetch(`${server.url}/api/users`)).status).toBe(404);
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'users.json'), JSON.stringify([{ id: 7, name: 'ann' }]));
  expect((await fetch(`${server.url}/api/users`)).status).toBe(200);
  expect((await fetch(`${server.url}/api/listen`, { method: 'POST' })).status).toBe(200);
  expect(await (await fetch(`${server.url}/api/rename`, { method: 'POST' })).json()).toEqual({ id: 7, name: 'renamed' });
  await expect.poll(() => heard.map((c) => `${c.collection} ${c.type} ${c.id}`)).toEqual(['users updated 7']);
});
