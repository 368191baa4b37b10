/**
 * The Data tab's admin routes when the OpenAPI document is all there is: `mockyard openapi.yaml`
 * (the built command, a real process; no mocks folder, as docs/openapi.md starts). The backend's
 * resources are listed and edited through the document's operations; before, `GET data` was the
 * store's 404 ("file routing is off") and the page showed no collection at all.
 */
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, it } from 'vitest';
import { startCli, stopCliProcesses } from '../helpers/cli-process.js';

const cli = fileURLToPath(new URL('../../dist/node/cli.js', import.meta.url));
const DOC = fileURLToPath(new URL('../fixtures/openapi/swagger-petstore-3.0.yaml', import.meta.url));
const dirs: string[] = [];
afterEach(async () => {
  await stopCliProcesses();
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

it('`mockyard openapi.yaml` alone: GET data lists the backend\'s resources, and an edit through it is what REST answers', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'mockyard-openapi-data-cli-'));
  dirs.push(dir);
  await copyFile(DOC, join(dir, 'openapi.yaml'));
  const { url } = await startCli(cli, ['openapi.yaml', '--port', '0', '--log-level', 'warn'], dir);
  const admin = `${url}/_mockyard/api`;

  const listed = await fetch(`${admin}/data`);
  expect(listed.status).toBe(200);
  const body = (await listed.json()) as { collections: Array<{ name: string; count: number; backend?: string }>; objects: string[] };
  expect(body.collections).toContainEqual({ name: '/pet', count: 20, backend: 'openapi' });
  expect(body.objects).toEqual([]);

  const page = (await (await fetch(`${admin}/data/${encodeURIComponent('/pet')}?limit=5`)).json()) as { items: Array<{ id: number }> };
  expect(page.items).toHaveLength(5);
  const id = page.items[1]!.id;
  const edited = await fetch(`${admin}/data/${encodeURIComponent('/pet')}/${id}`, { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Edited in the Data tab' }) });
  expect(edited.status).toBe(200);
  const rest = await fetch(`${url}/v2/pet/${id}`, { headers: { api_key: 'k' } });
  expect(rest.status).toBe(200);
  expect(((await rest.json()) as { name: string }).name).toBe('Edited in the Data tab');
});
