/**
 * The real connect middleware behind Express 5's body parsers, on a real node:http server:
 * the mock API must read the same fields whether or not
 * `express.urlencoded()` / `express.json()` ran first, for both `extended` settings.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { memoryFs } from '../../src/vfs/memory.js';
import { createMiddleware, type Middleware } from '../../src/node/middleware.js';

const servers: Server[] = [];
const middlewares: Middleware[] = [];

afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
  for (const m of middlewares.splice(0)) await m.close();
});

/** Express with `before` in front of the mockyard middleware; a handler echoes `req.body`. */
async function app(before: express.RequestHandler[]): Promise<string> {
  const mw = await createMiddleware({
    mock: {
      endpointPrefix: '/api',
      fs: memoryFs(),
      logLevel: 'silent',
      handlers: [{ pattern: '/echo', method: 'POST', handle: (req) => ({ body: req.body }) }],
    },
  });
  middlewares.push(mw);
  const a = express();
  for (const fn of before) a.use(fn);
  a.use(mw);
  const server = a.listen(0, '127.0.0.1');
  servers.push(server);
  await new Promise((r) => server.once('listening', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const FORM = 'a[b]=1&a[c][]=x&a[c][]=y&list=1&list=2&items[0][name]=n&plain=%5Bkept%5D&c=2';

async function echo(url: string, body: string | Uint8Array, headers: Record<string, string>): Promise<unknown> {
  const res = await fetch(`${url}/api/echo`, { method: 'POST', headers, body: body as BodyInit });
  expect(res.status).toBe(200);
  return ((await res.json()) as { body: unknown }).body;
}

describe('Express 5 body parsers in front of the middleware', () => {
  it('nested urlencoded bodies reach handlers as they were sent, with either extended setting', async () => {
    const direct = await echo(await app([]), FORM, { 'Content-Type': 'application/x-www-form-urlencoded' });
    expect(direct).toEqual({ 'a[b]': '1', 'a[c][]': ['x', 'y'], list: ['1', '2'], 'items[0][name]': 'n', plain: '[kept]', c: '2' });
    for (const extended of [true, false]) {
      const url = await app([express.urlencoded({ extended })]);
      const body = await echo(url, FORM, { 'Content-Type': 'application/x-www-form-urlencoded' });
      expect(body, `extended: ${extended}`).toEqual(direct);
      expect(JSON.stringify(body)).not.toContain('[object Object]');
    }
  });

  it('a body express.json() already inflated is not inflated again', async () => {
    const url = await app([express.json()]);
    const body = await echo(url, gzipSync('{"a":{"b":[1,2]}}'), { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' });
    expect(body).toEqual({ a: { b: [1, 2] } });
  });
});
