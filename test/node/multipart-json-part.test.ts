/**
 * A multipart part sent with `Content-Type: application/json` and no filename is a JSON value in
 * every host, by one reading (src/core/multipart.ts): the table of test/helpers/multipart-json-table.ts
 * through the node host (real server on 127.0.0.1), a real Vite dev server with the plugin, and
 * interceptFetch; Chromium through the page worker runs it in test/e2e/multipart.e2e.ts.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createServer as createViteServer } from 'vite';
import { afterEach, describe, expect, it } from 'vitest';
import { createMockApi, type MockApi } from '../../src/engine/create-mock-api.js';
import { mockyard } from '../../src/node/vite.js';
import { interceptFetch } from '../../src/test/index.js';
import { memoryFs } from '../../src/vfs/memory.js';
import { MULTIPART_TABLE_EXPECTED, MULTIPART_TABLE_FILES, multipartTableOptions, runMultipartTable } from '../helpers/multipart-json-table.js';
import { closeServers, startServer } from '../helpers/server.js';
import { makeTempDir, removeTempDirs } from '../helpers/temp-dir.js';

const apis: MockApi[] = [];
const cleanups: Array<() => Promise<unknown> | unknown> = [];
afterEach(async () => {
  for (const f of cleanups.splice(0).reverse()) await f();
  await closeServers();
  await Promise.all(apis.splice(0).map((a) => a.close()));
  await removeTempDirs();
});

const tableOptions = () => multipartTableOptions(memoryFs(MULTIPART_TABLE_FILES));

describe('multipart part with Content-Type: application/json, every host', () => {
  it('the node host', async () => {
    const api = createMockApi(tableOptions());
    apis.push(api);
    const { url } = await startServer({ engines: [api] });
    expect(await runMultipartTable(url)).toEqual(MULTIPART_TABLE_EXPECTED);
  });

  it('a real Vite dev server with the plugin', async () => {
    const root = await makeTempDir();
    await mkdir(join(root, 'mocks'), { recursive: true });
    await writeFile(join(root, 'index.html'), '<!doctype html><title>app</title>');
    const vite = await createViteServer({ root, configFile: false, logLevel: 'silent', appType: 'spa', server: { port: 0, host: '127.0.0.1' }, plugins: [mockyard({ mock: tableOptions(), logLevel: 'silent' })] });
    cleanups.push(() => vite.close());
    await vite.listen();
    const url = `http://127.0.0.1:${(vite.httpServer!.address() as AddressInfo).port}`;
    expect(await runMultipartTable(url)).toEqual(MULTIPART_TABLE_EXPECTED);
  });

  it('interceptFetch', async () => {
    const api = createMockApi(tableOptions());
    apis.push(api);
    const mocked = interceptFetch(api, { baseUrl: 'http://app.test' });
    cleanups.push(() => mocked.restore());
    expect(await runMultipartTable('http://app.test', globalThis.fetch)).toEqual(MULTIPART_TABLE_EXPECTED);
  });
});
