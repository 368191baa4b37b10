/**
 * The devtools page's GraphQL box in real Chromium, on the CLI serving a db.json (the json-server
 * preset turns GraphQL on): the tab appears, a query typed and run shows its answer, and the
 * Requests tab names the request by its operation.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { launchChromium, type Browser } from './helpers/chromium.js';

const cli = fileURLToPath(new URL('../../dist/node/cli.js', import.meta.url));
let browser: Browser;
let child: ChildProcess;
let dir: string;
let url: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mockyard-e2e-graphql-'));
  await writeFile(join(dir, 'db.json'), JSON.stringify({ posts: [{ id: 1, title: 'Lorem Ipsum', user_id: 1 }], users: [{ id: 1, name: 'Ada' }] }));
  child = spawn(process.execPath, [cli, 'db.json', '--port', '0', '--log-level', 'warn'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /listening on (http:\/\/[\d.]+:\d+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`mockyard exited (${code}): ${out}`)));
  });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  child?.kill('SIGTERM');
  await rm(dir, { recursive: true, force: true });
});

it('runs a query from the GraphQL tab and shows it in the Requests tab by operation', async () => {
  const page = await browser.context.newPage();
  await page.goto(`${url}/_mockyard/#graphql`);
  await page.locator('[data-tab=graphql][aria-selected=true]').waitFor();
  await page.locator('[data-testid=graphql-query]').fill('query Titles { allPosts { title User { name } } }');
  await page.locator('[data-testid=graphql-run]').click();
  const answer = page.locator('[data-testid=graphql-answer]');
  await answer.waitFor();
  expect(JSON.parse((await answer.textContent())!.replace(/^200\n/, ''))).toEqual({ data: { allPosts: [{ title: 'Lorem Ipsum', User: { name: 'Ada' } }] } });
  await page.locator('[data-tab=requests]').click();
  await page.locator('.requests-rows', { hasText: 'query Titles' }).waitFor();
});
