/**
 * Browser-mode data across edits of the seed files, as a Vite user meets it: a user app with
 * mockyard installed as a package, a real Vite dev server, real Chromium and msw's worker, the
 * seed imported from a JSON file of the app (`import users from './seed/users.json'`).
 *  - an unchanged seed keeps the edits made through the API across reloads;
 *  - a seed file changed on disk: the reload re-seeds from the new file and one console line says
 *    which file changed and how to keep edits;
 *  - `worker.reset()` puts the data back to the seed files.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ConsoleMessage, Page } from 'playwright-core';
import { createServer, type ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initWorker } from '../../src/node/init-worker.js';
import { removeUserApps, userApp } from '../helpers/user-app.js';
import { launchChromium, type Browser } from './helpers/chromium.js';
import { call } from './helpers/page-call.js';

const repo = fileURLToPath(new URL('../../', import.meta.url));
let browser: Browser;
let vite: ViteDevServer | undefined;

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await vite?.close();
  await browser?.close();
  await removeUserApps();
});

const MAIN = `import { indexedDbFs, startWorker } from 'mockyard/browser';
import users from './seed/users.json';

const fs = indexedDbFs('seed-app', { seed: { 'users.json': users } });
startWorker({ mock: { endpointPrefix: '/api', fs, preset: 'json-server' } }).then((worker) => {
  Object.assign(window, { worker, appReady: true });
});
`;

const ready = (page: Page) => page.waitForFunction(() => (window as unknown as { appReady?: boolean }).appReady === true, undefined, { timeout: 45_000 });
const names = async (page: Page) => ((await call(page, '/api/users')).body as Array<{ name: string }>).map((u) => u.name);

describe('browser data and the seed files (Vite dev, indexedDbFs)', () => {
  it('keeps edits while the seed is unchanged; a changed seed file re-seeds with one console line; worker.reset() restores the seed', async () => {
    const dir = await userApp({
      'index.html': '<!doctype html><html><body><script type="module" src="/src/main.ts"></script></body></html>\n',
      'src/main.ts': MAIN,
      'src/seed/users.json': JSON.stringify([{ id: 1, name: 'Ada' }]),
    });
    await initWorker(join(dir, 'public'), repo);
    // HMR off: the test reloads the page itself, after the dev server has seen the new file.
    vite = await createServer({
      root: dir,
      configFile: false,
      logLevel: 'silent',
      cacheDir: join(dir, 'node_modules/.vite'),
      server: { host: '127.0.0.1', port: 0, strictPort: false, hmr: false },
    });
    await vite.listen();
    const url = `http://127.0.0.1:${(vite.httpServer!.address() as { port: number }).port}`;

    const page = await browser.context.newPage();
    const lines: string[] = [];
    const errors: string[] = [];
    page.on('console', (m: ConsoleMessage) => {
      if (m.text().includes('[mockyard]')) lines.push(m.text());
      if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) errors.push(m.text());
    });
    page.on('pageerror', (e) => errors.push(String(e)));

    await page.goto(url);
    await ready(page);
    expect(await names(page)).toEqual(['Ada']);
    expect((await call(page, '/api/users', { method: 'POST', body: { name: 'Linus' } })).status).toBe(201);

    // Unchanged seed: the edit survives a reload, and nothing is said about the seed.
    await page.reload();
    await ready(page);
    expect(await names(page)).toEqual(['Ada', 'Linus']);
    expect(lines.filter((l) => l.includes('seed'))).toEqual([]);

    // The seed file changes on disk; once the dev server serves the new module, reload.
    await writeFile(join(dir, 'src/seed/users.json'), JSON.stringify([{ id: 1, name: 'Ada' }, { id: 2, name: 'Grace' }]));
    await expect
      .poll(async () => (await (await fetch(`${url}/src/seed/users.json?import`)).text()).includes('Grace'), { timeout: 30_000 })
      .toBe(true);
    await page.reload();
    await ready(page);
    expect(await names(page)).toEqual(['Ada', 'Grace']);
    const seedLines = lines.filter((l) => l.includes('seed changed'));
    expect(seedLines).toHaveLength(1);
    expect(seedLines[0]).toContain("indexedDbFs('seed-app')");
    expect(seedLines[0]).toContain('(users.json)');
    expect(seedLines[0]).toContain("onSeedChange: 'keep'");
    expect(seedLines[0]).not.toContain('\n');

    // worker.reset(): edits gone, the (new) seed files back.
    expect((await call(page, '/api/users', { method: 'POST', body: { name: 'Linus' } })).status).toBe(201);
    expect((await call(page, '/api/users/1', { method: 'DELETE' })).status).toBe(200);
    expect(await names(page)).toEqual(['Grace', 'Linus']);
    await page.evaluate(() => (window as unknown as { worker: { reset(): Promise<void> } }).worker.reset());
    expect(await names(page)).toEqual(['Ada', 'Grace']);
    expect((await call(page, '/api/users/1')).body).toEqual({ id: 1, name: 'Ada' });
    // …and the reset data is what the next load sees (no second seed line: the seed is the same).
    await page.reload();
    await ready(page);
    expect(await names(page)).toEqual(['Ada', 'Grace']);
    expect(lines.filter((l) => l.includes('seed changed'))).toHaveLength(1);
    expect(errors).toEqual([]);
    await page.close();
  }, 180_000);
});
