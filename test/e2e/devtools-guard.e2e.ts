/**
 * The devtools guard in real Chromium (src/devtools/guard.ts): a page on another origin sends the
 * admin API what any page can send without a preflight (a text/plain fetch in no-cors mode, a
 * form post) and changes nothing; a DNS-rebinding page (its own name resolved to 127.0.0.1, so
 * the admin API is "same-origin" to it) reads nothing; the devtools page on the server's own
 * origin still resets.
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { serve, type RunningServer } from '../../src/node/serve.js';
import { memoryFs } from '../../src/vfs/memory.js';
import { launchChromium, type Browser } from './helpers/chromium.js';

let browser: Browser;
let victim: RunningServer;
let evil: Server;
let evilUrl: string;

const A = '/_mockyard/api';

beforeAll(async () => {
  victim = await serve({ port: 0, host: '127.0.0.1', logLevel: 'silent', mock: { endpointPrefix: '/api', logLevel: 'silent', fs: memoryFs({ 'users.json': '[{"id":1}]' }) } });
  evil = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>evil</title>'));
  await new Promise<void>((resolve) => evil.listen(0, '127.0.0.1', resolve));
  evilUrl = `http://127.0.0.1:${(evil.address() as { port: number }).port}/`;
  browser = await launchChromium(['--host-resolver-rules=MAP rebind.test 127.0.0.1']);
});
afterAll(async () => {
  await browser?.close();
  await victim?.close();
  await new Promise((resolve) => evil?.close(resolve));
});

const users = async () => ((await (await fetch(`${victim.url}/api/users`)).json()) as unknown[]).length;
async function changeData(): Promise<void> {
  await fetch(`${victim.url}/api/users`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '[{"id":1},{"id":2}]' });
  expect(await users()).toBe(2);
}

it('a page on another origin cannot reset through a simple request or a form post', async () => {
  await changeData();
  const tab = await browser.context.newPage();
  await tab.goto(evilUrl);
  const status = await tab.evaluate(async (url) => {
    const res = await fetch(url, { method: 'POST', mode: 'no-cors', headers: { 'content-type': 'text/plain' }, body: '{}' });
    return res.type; // opaque: the page never sees the answer, only its effect would show
  }, `${victim.url}${A}/reset`);
  expect(status).toBe('opaque');
  // What the server answered that page (through the journal: the 403 is recorded? no — read the effect)
  expect(await users()).toBe(2);
  // A form post (navigates the tab: Sec-Fetch-Site cross-site, Origin set)
  await tab.setContent(`<form method="post" action="${victim.url}${A}/reset" enctype="text/plain"><input name="a" value="b"></form>`);
  await Promise.all([tab.waitForNavigation(), tab.evaluate(() => document.forms[0]!.submit())]);
  const shown = JSON.parse((await tab.textContent('body')) ?? '{}') as { status: number; option: string };
  expect(shown).toMatchObject({ status: 403, option: 'devtools.allowedOrigins' });
  expect(await users()).toBe(2);
  await tab.close();
});

it('a DNS-rebinding page (its name resolved to 127.0.0.1) reads no journal and resets nothing', async () => {
  await changeData();
  const tab = await browser.context.newPage();
  await tab.goto(`http://rebind.test:${victim.port}/api/users`);
  const got = await tab.evaluate(async (admin) => {
    const read = await fetch(`${admin}/requests`);
    const reset = await fetch(`${admin}/reset`, { method: 'POST' });
    return { read: read.status, body: (await read.json()) as { option: string }, reset: reset.status };
  }, A);
  expect(got).toMatchObject({ read: 403, body: { option: 'devtools.allowedHosts' }, reset: 403 });
  expect(await users()).toBe(2);
  await tab.close();
});

it('the devtools page on the server\'s own origin still works (reads, and a reset from its origin)', async () => {
  await changeData();
  const tab = await browser.context.newPage();
  await tab.goto(`${victim.url}/_mockyard/`);
  await tab.locator('[data-tab=requests]').waitFor();
  const status = await tab.evaluate(async (admin) => (await fetch(`${admin}/reset`, { method: 'POST' })).status, A);
  expect(status).toBe(200);
  expect(await users()).toBe(1);
  await tab.close();
});
