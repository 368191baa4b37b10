/**
 * `mockyard/playwright` in a real `@playwright/test` run (system Chromium): a small suite of
 * tests, `fullyParallel` with 4 workers, against ONE mockyard server started by Playwright's
 * `webServer` (the CLI as it ships). Each test creates items (from the page), lists them (from
 * a Web Worker of the page, and from the `request` fixture) and expects exactly the seed plus
 * its own items; others use per-test overrides, a per-test scenario and the test's journal. A
 * third run serves an OpenAPI document: a test's `route(…).prefer('code=404')`.
 */
import { spawn } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CHROMIUM_PATH } from './helpers/chromium.js';
import { makeTempDir, removeTempDirs } from '../helpers/temp-dir.js';

const ROOT = resolve(import.meta.dirname, '../..');

afterAll(async () => {
  await removeTempDirs();
});

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const srv = createServer();
    srv.once('error', fail);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => done(port));
    });
  });
}

const SPEC = (fixture: string) => `
import { test, expect } from ${JSON.stringify(fixture)};

async function listFromWorker(page) {
  return page.evaluate(async () => {
    const src = 'onmessage = async (e) => { const r = await fetch(e.data + "/api/items"); postMessage({ status: r.status, items: await r.json() }); };';
    const worker = new Worker(URL.createObjectURL(new Blob([src], { type: 'text/javascript' })));
    return new Promise((resolve) => { worker.onmessage = (e) => resolve(e.data); worker.postMessage(location.origin); });
  });
}

for (let n = 0; n < 12; n++) {
  test('test ' + n + ' creates and lists exactly its own items', async ({ page, request, mockyard }) => {
    await page.goto('/api/app.html');
    const names = ['a', 'b', 'c'].map((x) => 't' + n + '-' + x);
    for (const name of names) {
      const status = await page.evaluate(async (name) => (await fetch('/api/items', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name }) })).status, name);
      expect(status).toBe(201);
    }
    const fromWorker = await listFromWorker(page);
    expect(fromWorker.status).toBe(200);
    expect(fromWorker.items.map((i) => i.name)).toEqual(['seed', ...names]);
    const fromRequest = await (await request.get('/api/items')).json();
    expect(fromRequest.map((i) => i.name)).toEqual(['seed', ...names]);
    const posts = await mockyard.requests({ method: 'POST' });
    expect(posts.map((e) => e.status)).toEqual([201, 201, 201]);
    expect(posts.every((e) => e.session === mockyard.id)).toBe(true);
    expect(posts.every((e) => e.request.headers['x-mockyard-session'] === mockyard.id)).toBe(true); // the header, not only the cookie
  });
}

test('an override applies to this test only', async ({ page, mockyard }) => {
  await mockyard.use({ method: 'GET', path: '/items', body: [{ id: 99, name: 'overridden' }] });
  await page.goto('/api/app.html');
  const items = await page.evaluate(async () => (await fetch('/api/items')).json());
  expect(items).toEqual([{ id: 99, name: 'overridden' }]);
});

test('a scenario applies to this test only', async ({ page, mockyard }) => {
  await mockyard.scenario('empty');
  await page.goto('/api/app.html');
  const items = await page.evaluate(async () => (await fetch('/api/items')).json());
  expect(items).toEqual([]);
});

test('data() and route(): the test copy of the data and its routes, through the admin API', async ({ page, request, mockyard }) => {
  const items = mockyard.data('items');
  const added = await items.insert({ name: 'via fixture' });
  expect(await items.update(1, { name: 'seed renamed' })).toEqual({ id: 1, name: 'seed renamed' });
  expect((await (await request.get('/api/items')).json()).map((i) => i.name)).toEqual(['seed renamed', 'via fixture']);
  expect((await items.list({ q: 'FIXTURE' })).total).toBe(1);
  const dup = await items.duplicate(added.id);
  expect(dup).toEqual({ id: added.id + 1, name: 'via fixture' });
  await items.remove(dup.id);
  expect(await items.get(dup.id)).toBeUndefined();
  await page.goto('/api/app.html');
  await mockyard.route('GET /api/items').fault('connection-reset');
  expect(await page.evaluate(() => fetch('/api/items').then((r) => 'status ' + r.status, () => 'network error'))).toBe('network error');
  await mockyard.route('GET /api/items').reset();
  expect(await page.evaluate(async () => (await fetch('/api/items')).status)).toBe(200);
  await mockyard.route('GET /api/items/:id').status(503);
  expect(await page.evaluate(async () => (await fetch('/api/items/1')).status)).toBe(503);
  await mockyard.route('/api/items').off();
  expect(await page.evaluate(async () => (await fetch('/api/items')).status)).toBe(404);
  await mockyard.resetHandlers();
  await items.reset();
  expect((await items.all()).map((i) => i.name)).toEqual(['seed']);
});

test('webhooks(): the webhooks this test caused (others run in parallel), delivered exactly once', async ({ page, mockyard }) => {
  await page.goto('/api/app.html');
  const status = await page.evaluate(async () => (await fetch('/api/items', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'hooked' }) })).status);
  expect(status).toBe(201);
  await expect.poll(async () => (await mockyard.webhooks({ event: 'item.created', outcome: 'delivered' })).length).toBe(1);
  const rows = await mockyard.webhooks();
  expect(rows).toHaveLength(1);
  expect(JSON.parse(rows[0].request.body.text).name).toBe('hooked');
  expect(rows[0].outgoing.cause).toBe('POST /api/items');
});

test('a fault on this test only: the page sees the network error', async ({ page, mockyard }) => {
  await mockyard.use({ method: 'GET', path: '/items', fault: 'connection-reset' });
  await page.goto('/api/app.html');
  const outcome = await page.evaluate(async () => fetch('/api/items').then((r) => 'status ' + r.status, (e) => e.name + ': ' + e.message));
  expect(outcome).toBe('TypeError: Failed to fetch');
});
`;

describe('mockyard/playwright in a real @playwright/test run', () => {
  it('17 tests, fullyParallel, 4 workers, one webServer: all green, each list exact', async () => {
    const dir = await makeTempDir('mockyard-pw-');
    const port = await freePort();
    await mkdir(join(dir, 'mocks'), { recursive: true });
    await mkdir(join(dir, 'scen', 'empty'), { recursive: true });
    await writeFile(join(dir, 'mocks', 'items.json'), JSON.stringify([{ id: 1, name: 'seed' }], null, 2));
    await writeFile(join(dir, 'mocks', 'app.html'), '<!doctype html><title>app</title><p>app</p>');
    await writeFile(join(dir, 'scen', 'empty', 'items.json'), '[]');
    await writeFile(join(dir, 'mocks', 'hooks.json'), '[]');
    // Every created item is a webhook to the server's own /api/hooks (the receiver here).
    await writeFile(join(dir, 'mockyard.config.mjs'), `export default { mock: { endpointPrefix: '/api', fsDir: './mocks', collections: true, scenarios: { empty: { fsDir: './scen/empty' } }, webhooks: [{ on: 'POST /api/items', url: 'http://127.0.0.1:${port}/api/hooks', event: 'item.created', body: (c) => ({ name: c.response.body.name }) }] } };\n`);
    await writeFile(join(dir, 'items.spec.mjs'), SPEC(join(ROOT, 'dist', 'playwright', 'index.js')));
    const baseURL = `http://127.0.0.1:${port}`;
    await writeFile(
      join(dir, 'playwright.config.mjs'),
      `export default {
  testDir: '.',
  fullyParallel: true,
  workers: 4,
  retries: 0,
  timeout: 60000,
  reporter: [['json', { outputFile: 'results.json' }]],
  use: { baseURL: ${JSON.stringify(baseURL)}, headless: true, launchOptions: { executablePath: ${JSON.stringify(CHROMIUM_PATH)}, args: ['--no-sandbox', '--disable-gpu'] } },
  webServer: { command: ${JSON.stringify(`node ${join(ROOT, 'dist', 'node', 'cli.js')} --config mockyard.config.mjs --port ${port} --quiet`)}, url: ${JSON.stringify(`${baseURL}/api/items`)}, reuseExistingServer: false, timeout: 60000 },
};\n`,
    );
    const before = await readFile(join(dir, 'mocks', 'items.json'), 'utf8');
    const code = await new Promise<number>((done) => {
      const child = spawn(process.execPath, [join(ROOT, 'node_modules', '@playwright', 'test', 'cli.js'), 'test', '-c', 'playwright.config.mjs'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, CI: '1' } });
      let err = '';
      child.stderr.on('data', (d) => (err += d));
      child.on('close', (c) => {
        if (c !== 0) console.error(err);
        done(c ?? 1);
      });
    });
    const report = JSON.parse(await readFile(join(dir, 'results.json'), 'utf8'));
    const results: Array<{ title: string; status: string; workerIndex: number; error?: { message?: string } }> = [];
    const walk = (suite: any) => {
      for (const spec of suite.specs ?? []) for (const t of spec.tests) for (const r of t.results) results.push({ title: spec.title, status: r.status, workerIndex: r.workerIndex, error: r.error });
      for (const s of suite.suites ?? []) walk(s);
    };
    for (const s of report.suites) walk(s);
    const failed = results.filter((r) => r.status !== 'passed');
    expect(failed.map((r) => `${r.title}: ${r.error?.message}`)).toEqual([]);
    expect(code).toBe(0);
    expect(results).toHaveLength(17);
    expect(new Set(results.map((r) => r.workerIndex)).size).toBeGreaterThan(1);
    expect(await readFile(join(dir, 'mocks', 'items.json'), 'utf8')).toBe(before);
  }, 300_000);

  it('against the Vite plugin as the docs show it (4 workers, Vite as webServer): JSON admin API, sessions per test, errors that say what to do', async () => {
    const dir = await makeTempDir('mockyard-pw-vite-');
    const port = await freePort();
    await mkdir(join(dir, 'mocks'), { recursive: true });
    await mkdir(join(dir, 'scen', 'empty'), { recursive: true });
    await writeFile(join(dir, 'mocks', 'items.json'), JSON.stringify([{ id: 1, name: 'seed' }], null, 2));
    await writeFile(join(dir, 'scen', 'empty', 'items.json'), '[]');
    await writeFile(join(dir, 'index.html'), '<!doctype html><title>app</title><p>app</p>');
    await writeFile(
      join(dir, 'vite.config.mjs'),
      `import { mockyard } from ${JSON.stringify(join(ROOT, 'dist', 'node', 'index.js'))};
export default { plugins: [mockyard({ mock: { endpointPrefix: '/api', fsDir: 'mocks', collections: true, scenarios: { empty: { fsDir: 'scen/empty' } } } })] };\n`,
    );
    // Somewhere that is not mockyard (a page server), and a port nobody listens on.
    const html = (await import('node:http')).createServer((_q, r) => r.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><p>not mockyard</p>'));
    await new Promise<void>((done) => html.listen(0, '127.0.0.1', done));
    const htmlUrl = `http://127.0.0.1:${(html.address() as { port: number }).port}`;
    const closed = `http://127.0.0.1:${await freePort()}`;
    const spec = `
import { test, expect } from ${JSON.stringify(join(ROOT, 'dist', 'playwright', 'index.js'))};

for (let n = 0; n < 8; n++) {
  test('vite test ' + n + ': its own items, scenario and journal', async ({ page, mockyard }) => {
    await page.goto('/');
    if (n % 2) {
      await mockyard.scenario('empty');
      expect(await page.evaluate(async () => (await fetch('/api/items')).json())).toEqual([]);
      expect((await mockyard.requests()).map((e) => e.method + ' ' + e.status)).toContain('GET 200');
      return;
    }
    const name = 'v' + n;
    expect(await page.evaluate(async (name) => (await fetch('/api/items', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name }) })).status, name)).toBe(201);
    expect((await page.evaluate(async () => (await fetch('/api/items')).json())).map((i) => i.name)).toEqual(['seed', name]);
    expect((await mockyard.requests({ method: 'POST' })).map((e) => e.status)).toEqual([201]);
    await mockyard.data('items').update(1, { name: 'renamed ' + n });
    expect((await page.evaluate(async () => (await fetch('/api/items')).json()))[0].name).toBe('renamed ' + n);
  });
}

test.describe('where there is no mockyard', () => {
  test.use({ mockyardURL: ${JSON.stringify(htmlUrl)} });
  test('a page server: the error names use.mockyardURL', async ({ mockyard }) => {
    await expect(mockyard.use({ method: 'GET', path: '/x', body: 1 })).rejects.toThrow(/not the admin API's JSON: no mockyard serves .*Set use.mockyardURL/);
  });
});

test.describe('a server that is not running', () => {
  test.use({ mockyardURL: ${JSON.stringify(closed)} });
  test('the error says to start it', async ({ mockyard }) => {
    await expect(mockyard.scenario('empty')).rejects.toThrow(/cannot reach .*start the mockyard server/);
  });
});
`;
    await writeFile(join(dir, 'items.spec.mjs'), spec);
    const baseURL = `http://127.0.0.1:${port}`;
    await writeFile(
      join(dir, 'playwright.config.mjs'),
      `export default {
  testDir: '.',
  fullyParallel: true,
  workers: 4,
  retries: 0,
  timeout: 60000,
  reporter: [['json', { outputFile: 'results.json' }]],
  use: { baseURL: ${JSON.stringify(baseURL)}, headless: true, launchOptions: { executablePath: ${JSON.stringify(CHROMIUM_PATH)}, args: ['--no-sandbox', '--disable-gpu'] } },
  webServer: { command: ${JSON.stringify(`node ${join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js')} --port ${port} --strictPort --host 127.0.0.1`)}, url: ${JSON.stringify(`${baseURL}/api/items`)}, reuseExistingServer: false, timeout: 60000, stdout: 'pipe' },
};\n`,
    );
    const before = await readFile(join(dir, 'mocks', 'items.json'), 'utf8');
    let out = '';
    const code = await new Promise<number>((done) => {
      const child = spawn(process.execPath, [join(ROOT, 'node_modules', '@playwright', 'test', 'cli.js'), 'test', '-c', 'playwright.config.mjs'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, CI: '1', DEBUG: 'pw:webserver' } });
      child.stdout.on('data', (d) => (out += d));
      child.stderr.on('data', (d) => (out += d));
      child.on('close', (c) => done(c ?? 1));
    });
    await new Promise((done) => html.close(done));
    const report = JSON.parse(await readFile(join(dir, 'results.json'), 'utf8'));
    const results: Array<{ title: string; status: string; workerIndex: number; error?: { message?: string } }> = [];
    const walk = (suite: any) => {
      for (const s of suite.specs ?? []) for (const t of s.tests) for (const r of t.results) results.push({ title: s.title, status: r.status, workerIndex: r.workerIndex, error: r.error });
      for (const s of suite.suites ?? []) walk(s);
    };
    for (const s of report.suites) walk(s);
    expect(results.filter((r) => r.status !== 'passed').map((r) => `${r.title}: ${r.error?.message}`)).toEqual([]);
    expect(code).toBe(0);
    expect(results).toHaveLength(10);
    expect(new Set(results.map((r) => r.workerIndex)).size).toBeGreaterThan(1);
    expect(await readFile(join(dir, 'mocks', 'items.json'), 'utf8')).toBe(before); // every write stayed in its test's session
    expect(out).toMatch(/\[mockyard\] devtools at http:\/\/127\.0\.0\.1:\d+\/_mockyard\//); // the plugin's start-up lines in Vite's log
  }, 300_000);

  it("against an OpenAPI document (the CLI as webServer): route('GET /v2/pet/:petId').prefer('code=404'), the path as requested, for this test only", async () => {
    const dir = await makeTempDir('mockyard-pw-openapi-');
    const port = await freePort();
    await writeFile(join(dir, 'petstore.yaml'), await readFile(join(ROOT, 'node_modules', '@readme', 'oas-examples', '3.0', 'yaml', 'petstore.yaml'), 'utf8'));
    const spec = `
import { test, expect } from ${JSON.stringify(join(ROOT, 'dist', 'playwright', 'index.js'))};

const firstPet = async (mockyard) => (await mockyard.data('/pet').list({ limit: 1 })).items[0].id;

test('prefer: the documented 404 for this test, undone by reset', async ({ request, mockyard }) => {
  const id = await firstPet(mockyard);
  const get = () => request.get('/v2/pet/' + id, { headers: { ...mockyard.headers, api_key: 'k' } });
  expect((await get()).status()).toBe(200);
  await mockyard.route('GET /v2/pet/:petId').prefer('code=404');
  const refused = await get();
  expect(refused.status()).toBe(404);
  expect((await mockyard.requests()).map((e) => e.status)).toEqual([200, 404]);
  await mockyard.route('GET /v2/pet/:petId').reset();
  expect((await get()).status()).toBe(200);
});

test('another test: its own session, no Prefer', async ({ request, mockyard }) => {
  const id = await firstPet(mockyard);
  expect((await request.get('/v2/pet/' + id, { headers: { ...mockyard.headers, api_key: 'k' } })).status()).toBe(200);
});
`;
    await writeFile(join(dir, 'pets.spec.mjs'), spec);
    const baseURL = `http://127.0.0.1:${port}`;
    await writeFile(
      join(dir, 'playwright.config.mjs'),
      `export default {
  testDir: '.',
  fullyParallel: true,
  workers: 2,
  retries: 0,
  timeout: 60000,
  reporter: [['json', { outputFile: 'results.json' }]],
  use: { baseURL: ${JSON.stringify(baseURL)} },
  webServer: { command: ${JSON.stringify(`node ${join(ROOT, 'dist', 'node', 'cli.js')} petstore.yaml --port ${port} --quiet`)}, url: ${JSON.stringify(`${baseURL}/_mockyard/api/routes`)}, reuseExistingServer: false, timeout: 60000 },
};\n`,
    );
    let out = '';
    const code = await new Promise<number>((done) => {
      const child = spawn(process.execPath, [join(ROOT, 'node_modules', '@playwright', 'test', 'cli.js'), 'test', '-c', 'playwright.config.mjs'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, CI: '1' } });
      child.stdout.on('data', (d) => (out += d));
      child.stderr.on('data', (d) => (out += d));
      child.on('close', (c) => done(c ?? 1));
    });
    const report = JSON.parse(await readFile(join(dir, 'results.json'), 'utf8'));
    const results: Array<{ title: string; status: string; error?: { message?: string } }> = [];
    const walk = (suite: any) => {
      for (const s of suite.specs ?? []) for (const t of s.tests) for (const r of t.results) results.push({ title: s.title, status: r.status, error: r.error });
      for (const s of suite.suites ?? []) walk(s);
    };
    for (const s of report.suites) walk(s);
    expect(results.filter((r) => r.status !== 'passed').map((r) => `${r.title}: ${r.error?.message}`), out).toEqual([]);
    expect(code).toBe(0);
    expect(results).toHaveLength(2);
  }, 300_000);
});
