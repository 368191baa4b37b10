/**
 * A new static route from the admin API (POST routes): status, headers, a JSON or a text body,
 * saved as an ordinary file of the mocks folder — `<path>.json` / `.txt` for a plain 200, else
 * the recording `<path>@recorded.json` — and served by the built `mockyard` command, also after a
 * restart (a second process on the same folder).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { compileSources } from '../helpers/built-src.js';
import { startCli, stopCliProcesses } from '../helpers/cli-process.js';
import { makeTempDir, removeTempDirs } from '../helpers/temp-dir.js';

const A = '/_mockyard/api';
let cli: string;
beforeAll(() => {
  cli = join(compileSources('admin-files'), 'node', 'cli.js');
}, 120_000);
afterEach(async () => {
  await stopCliProcesses();
  await removeTempDirs();
});

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${url}${A}/routes`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

describe('admin API: POST routes (a new static route)', () => {
  it('saves status, headers and a JSON or text body as mock files the CLI serves, also after a restart', async () => {
    const dir = await makeTempDir();
    const first = await startCli(cli, ['--fs-dir', 'mocks', '--port', '0', '--log-level', 'warn'], dir);
    const created = await post(first.url, { path: 'flags', status: 418, headers: { 'X-Flag': 'on', 'Cache-Control': 'no-store' }, body: { beta: true } });
    expect(created.status).toBe(201);
    expect(await created.json()).toEqual({ file: 'flags@recorded.json', url: '/api/flags', status: 418 });
    expect(JSON.parse(await readFile(join(dir, 'mocks', 'flags@recorded.json'), 'utf8'))).toEqual({
      recorded: [{ request: { method: 'GET' }, response: { status: 418, headers: { 'x-flag': 'on', 'cache-control': 'no-store' }, body: { beta: true } } }],
    });
    expect((await post(first.url, { path: 'notes/today', status: 503, headers: { 'Retry-After': '120' }, text: 'down for a while' })).status).toBe(201);
    expect((await post(first.url, { path: 'plain', body: [{ id: 1 }] })).status).toBe(201);
    expect(JSON.parse(await readFile(join(dir, 'mocks', 'plain.json'), 'utf8'))).toEqual([{ id: 1 }]); // a plain 200: an ordinary JSON file
    expect((await post(first.url, { path: 'hello', text: 'hi there' })).status).toBe(201);
    expect(await readFile(join(dir, 'mocks', 'hello.txt'), 'utf8')).toBe('hi there');

    // Never over an existing route; bad input is a 400 naming it.
    expect((await post(first.url, { path: 'flags', body: {} })).status).toBe(412);
    expect((await post(first.url, { path: 'plain', status: 201, body: {} })).status).toBe(412);
    expect((await (await post(first.url, { path: 'x', headers: { 'Set-Cookie': 'a=1' }, body: {} })).json()).message).toMatch(/^Set-Cookie is not a header a recording answers with/);
    expect((await post(first.url, { path: 'x', status: 99, body: {} })).status).toBe(400);
    expect((await post(first.url, { path: 'x', headers: { 'X-Bad': 'a\nb' }, body: {} })).status).toBe(400);
    expect((await post(first.url, { path: 'x', body: {}, text: 'both' })).status).toBe(400);
    expect((await post(first.url, { path: '../outside', body: {} })).status).toBe(400);
    expect((await post(first.url, { path: 'x', body: {} }, { origin: 'http://evil.example' })).status).toBe(403); // the guard

    first.child.kill();
    await new Promise((r) => first.child.once('exit', r));
    const { url } = await startCli(cli, ['--fs-dir', 'mocks', '--port', '0', '--log-level', 'warn'], dir);
    const flags = await fetch(`${url}/api/flags`);
    expect(flags.status).toBe(418);
    expect(flags.headers.get('x-flag')).toBe('on');
    expect(flags.headers.get('cache-control')).toBe('no-store');
    expect(flags.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await flags.json()).toEqual({ beta: true });
    const head = await fetch(`${url}/api/flags`, { method: 'HEAD' });
    expect(head.status).toBe(418);
    const today = await fetch(`${url}/api/notes/today`);
    expect(today.status).toBe(503);
    expect(today.headers.get('retry-after')).toBe('120');
    expect(today.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await today.text()).toBe('down for a while');
    expect(await (await fetch(`${url}/api/plain`)).json()).toEqual([{ id: 1 }]);
    expect(await (await fetch(`${url}/api/hello`)).text()).toBe('hi there');
  });
});
