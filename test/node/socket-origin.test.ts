/**
 * WebSocket handshakes follow the mock API's CORS origins (the built `mockyard db.json`, real
 * sockets). Browsers send `Origin` on a handshake but apply no CORS to sockets, so before, any web
 * page the developer visited could open GraphQL's socket on `mockyard db.json` and read and write
 * the mocks, while the same page's `fetch` got no readable answer (the CLI's default CORS takes
 * only pages on this machine). Now a page's origin must be the server's own or one CORS allows.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startCli, stopCliProcesses } from '../helpers/cli-process.js';

const cli = fileURLToPath(new URL('../../dist/node/cli.js', import.meta.url));
const dirs: string[] = [];
afterEach(async () => {
  await stopCliProcesses();
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

/** Opens GraphQL's socket as a page on `origin` would (none: a Node client); resolves to 'open' or the refusal's status and body. */
function handshake(url: string, origin: string | undefined): Promise<string> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/graphql`, 'graphql-transport-ws', origin ? { origin } : {});
    ws.on('open', () => {
      ws.close();
      resolve('open');
    });
    ws.on('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c)).on('end', () => resolve(`${res.statusCode} ${JSON.parse(body).message}`));
    });
    ws.on('error', () => undefined);
  });
}

async function serve(args: string[]): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'mockyard-socket-origin-'));
  dirs.push(dir);
  await writeFile(join(dir, 'db.json'), JSON.stringify({ posts: [{ id: 1, title: 'one' }] }));
  return (await startCli(cli, ['db.json', '--port', '0', '--log-level', 'warn', ...args], dir)).url;
}

it('the default CORS (pages on this machine): another site\'s page gets a 403 naming the option; local pages, the server\'s own and Node clients open', async () => {
  const url = await serve([]);
  expect(await handshake(url, 'https://evil.example')).toBe(
    "403 Origin https://evil.example may not open a WebSocket here: the mock API's CORS origins (mock.cors, the CLI's --cors) do not include it",
  );
  expect(await handshake(url, 'http://localhost:5173')).toBe('open');
  expect(await handshake(url, url)).toBe('open');
  expect(await handshake(url, undefined)).toBe('open');
});

it("--cors lists the origins sockets may come from too; --cors '*' lets every page in", async () => {
  const listed = await serve(['--cors', 'https://app.example.com']);
  expect(await handshake(listed, 'https://app.example.com')).toBe('open');
  expect((await handshake(listed, 'http://localhost:5173')).startsWith('403 ')).toBe(true);
  const any = await serve(['--cors', '*']);
  expect(await handshake(any, 'https://evil.example')).toBe('open');
});
