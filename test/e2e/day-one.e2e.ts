/**
 * Day one in the browser, as a user copies the README: mockyard installed as a package in the
 * app's folder, a real Vite dev server (with and without pre-bundling mockyard) and a production
 * build, real Chromium, msw's real worker.
 *  - `handlersFor` in the app's own `setupWorker` (README block `handlersFor-browser`), from
 *    `mockyard/browser`: no Node polyfill, no crash.
 *  - `startWorker` (examples/browser-dev-only, shown in README.md and docs/browser.md): a working list app (list, filter,
 *    create, toggle, delete) with the options the snippet shows and nothing else.
 */
import { cp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { build, createServer, type ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initWorker } from '../../src/node/init-worker.js';
import { markedBlock, removeUserApps, userApp } from '../helpers/user-app.js';
import { launchChromium, type Browser } from './helpers/chromium.js';
import { call } from './helpers/page-call.js';
import { startStaticServer, type StaticServer } from './helpers/static-server.js';

const repo = fileURLToPath(new URL('../../', import.meta.url));
let browser: Browser;
const servers: Array<ViteDevServer | StaticServer> = [];

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  for (const s of servers) await s.close();
  await browser?.close();
  await removeUserApps();
});

type Mode = 'pre-bundled' | 'not pre-bundled' | 'production build';

/** Serves `dir` as the user would in `mode`; resolves the page URL. */
async function serveApp(dir: string, mode: Mode): Promise<string> {
  await initWorker(join(dir, 'public'), repo);
  if (mode === 'production build') {
    const nodeEnv = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    try {
      await build({ root: dir, configFile: false, logLevel: 'silent', mode: 'production', build: { outDir: join(dir, 'dist'), emptyOutDir: true } });
    } finally {
      process.env.NODE_ENV = nodeEnv;
    }
    const server = await startStaticServer(join(dir, 'dist'));
    servers.push(server);
    return server.url;
  }
  const server = await createServer({
    root: dir,
    configFile: false,
    logLevel: 'silent',
    cacheDir: join(dir, 'node_modules/.vite'),
    server: { host: '127.0.0.1', port: 0, strictPort: false },
    optimizeDeps: mode === 'not pre-bundled' ? { exclude: ['mockyard'] } : {},
  });
  servers.push(server);
  await server.listen();
  const address = server.httpServer!.address() as { port: number };
  return `http://127.0.0.1:${address.port}`;
}

async function openPage(url: string): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  // Console errors, except the browser's line for a failed resource (the favicon: no such file);
  // failed resources are checked by their responses instead.
  page.on('console', (m) => {
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) errors.push(m.text());
  });
  page.on('response', (r) => {
    if (r.status() >= 400 && !r.url().endsWith('/favicon.ico')) errors.push(`${r.status()} ${r.url()}`);
  });
  await page.goto(url);
  await page.waitForFunction(() => (window as unknown as { appReady?: boolean }).appReady === true || document.body.dataset.failed !== undefined, undefined, { timeout: 45_000 });
  return { page, errors };
}

/** List, filter, create, toggle, delete on collection `name` (items with a boolean `done`). */
async function listApp(page: Page, name: string, field: string) {
  const all = await call(page, `/api/${name}`);
  expect(all.status).toBe(200);
  const first = all.body[0];
  expect((await call(page, `/api/${name}?${field}=${encodeURIComponent(String(first[field]))}`)).body.map((t: { id: number }) => t.id)).toContain(first.id);
  const created = await call(page, `/api/${name}`, { method: 'POST', body: { [field]: 'new one', done: false } });
  expect(created.status).toBe(201);
  const id = created.body.id;
  expect((await call(page, `/api/${name}/${id}`, { method: 'PATCH', body: { done: true } })).body.done).toBe(true);
  expect((await call(page, `/api/${name}?done=true`)).body.map((t: { id: number }) => t.id)).toContain(id);
  expect((await call(page, `/api/${name}/${id}`, { method: 'DELETE' })).status).toBe(200);
  expect((await call(page, `/api/${name}/${id}`)).status).toBe(404);
}

describe("handlersFor in the app's own setupWorker (README block handlersFor-browser)", () => {
  for (const mode of ['pre-bundled', 'not pre-bundled', 'production build'] as const) {
    it(`works in ${mode === 'production build' ? 'a production build' : `Vite dev, mockyard ${mode}`}`, async () => {
      const snippet = markedBlock(await readFile(join(repo, 'README.md'), 'utf8'), 'handlersFor-browser');
      const dir = await userApp({
        'index.html': '<!doctype html><html><body><script type="module" src="/src/main.ts"></script></body></html>\n',
        'src/mocks.ts': snippet,
        'src/main.ts': "import './mocks';\n(window as unknown as { appReady: boolean }).appReady = true;\n",
      });
      const { page, errors } = await openPage(await serveApp(dir, mode));
      expect(errors).toEqual([]);
      await listApp(page, 'todos', 'title');
      await page.close();
    }, 120_000);
  }
});

describe('startWorker (README: examples/browser-dev-only)', () => {
  it('a list app in Vite dev with the options the snippet shows', async () => {
    const dir = await userApp();
    await cp(join(repo, 'examples/browser-dev-only/index.html'), join(dir, 'index.html'));
    await cp(join(repo, 'examples/browser-dev-only/src'), join(dir, 'src'), { recursive: true });
    const main = await readFile(join(dir, 'src/main.ts'), 'utf8');
    await writeFile(join(dir, 'src/main.ts'), `${main}\n.then(() => { (window as unknown as { appReady: boolean }).appReady = true; });\n`.replace(/;\n\n\.then/, '\n.then'));
    const { page, errors } = await openPage(await serveApp(dir, 'pre-bundled'));
    expect(errors).toEqual([]);
    expect(await page.textContent('#app')).toBe('Ada'); // the app rendered from the worker
    await listApp(page, 'users', 'name');

    // The devtools overlay: #_mockyard opens it; "Reset data to the seed files" puts the seed
    // back (IndexedDB keeps edits across reloads otherwise); Escape closes it and takes the hash
    // off the URL.
    expect((await call(page, '/api/users', { method: 'POST', body: { name: 'Linus' } })).status).toBe(201);
    await page.evaluate(() => {
      location.hash = '#_mockyard';
    });
    await page.waitForSelector('[data-mockyard-devtools]', { state: 'attached' });
    await page.locator('[data-tab="scenarios"]').click();
    await page.locator('[data-testid="reset-data"]').click();
    await page.getByText('Data reset to the seed files.').waitFor();
    expect((await call(page, '/api/users')).body).toEqual([{ id: 1, name: 'Ada' }]);
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-mockyard-devtools]', { state: 'detached' });
    expect(await page.evaluate(() => location.hash)).toBe('');
    await page.close();
  }, 120_000);
});
