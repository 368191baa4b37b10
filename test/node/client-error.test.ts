/**
 * Requests Node's HTTP parser refuses: an over-long URL, oversized headers, a
 * malformed request line get the one JSON error body from the node host instead of Node's bare
 * status line, and the client reads it whole (no reset). Real server, raw sockets (fetch cannot
 * send malformed requests).
 */
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { memoryFs } from '../../src/vfs/memory.js';
import type { ServeOptions } from '../../src/node/serve.js';
import { closeServers, startServer } from '../helpers/server.js';

afterEach(closeServers);

interface Answer {
  status: number;
  headers: Record<string, string>;
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  /** Everything received, for the answers that come before it. */
  raw: string;
  /** A socket error (a reset), if any. */
  error?: string;
}

/**
 * Sends `parts` on a raw socket (each a write; functions are called for more writes while the
 * socket takes them), reads until the server closes, and parses the last HTTP answer received.
 */
function send(url: string, parts: Array<string | Buffer>, more?: () => Buffer | undefined): Promise<Answer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port), allowHalfOpen: true });
    const chunks: Buffer[] = [];
    let error: string | undefined;
    socket.on('data', (d: Buffer) => chunks.push(d));
    socket.on('error', (err: NodeJS.ErrnoException) => (error ??= err.code ?? err.message));
    socket.on('close', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const start = raw.lastIndexOf('HTTP/1.1 ');
      if (start === -1) return reject(new Error(`no answer (error ${error ?? '-'})`));
      const text = raw.slice(start);
      const split = text.indexOf('\r\n\r\n');
      const [statusLine, ...lines] = text.slice(0, split).split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const i = line.indexOf(':');
        headers[line.slice(0, i).toLowerCase()] = line.slice(i + 1).trim();
      }
      const body = text.slice(split + 4);
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        json = undefined;
      }
      resolve({ status: Number(statusLine!.split(' ')[1]), headers, json, raw, error });
    });
    for (const p of parts) socket.write(p);
    if (!more) return void socket.end();
    const pump = () => {
      for (let next = more(); next !== undefined; next = more()) if (!socket.write(next)) return void socket.once('drain', pump);
      socket.end();
    };
    pump();
  });
}

async function server(extra: Partial<ServeOptions> = {}) {
  return startServer({ mock: { endpointPrefix: '/api', fs: memoryFs({ 'x.json': { x: 1 } }), logLevel: 'silent' }, ...extra });
}

function expectShape(a: Answer, status: number, error: string) {
  expect(a.status).toBe(status);
  expect(a.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(a.headers.connection).toBe('close');
  expect(Number(a.headers['content-length'])).toBe(Buffer.byteLength(JSON.stringify(a.json), 'utf8'));
  expect(a.json).toMatchObject({ status, error });
  expect(typeof a.json.message).toBe('string');
  expect(Number.isNaN(Date.parse(a.json.timestamp))).toBe(false);
  expect(a.error).toBeUndefined();
}

describe('requests the HTTP parser refuses get the JSON error body', () => {
  it('a URL over 16 KB → 431 naming the limit, with the (shortened) path', async () => {
    const s = await server();
    const path = `/api/${'a'.repeat(20_000)}`;
    const a = await send(s.url, [`GET ${path}?q=1 HTTP/1.1\r\nHost: x\r\n\r\n`]);
    expectShape(a, 431, 'REQUEST_HEADER_FIELDS_TOO_LARGE');
    expect(a.json.message).toContain('16384 bytes');
    expect(a.json.path).toBe(`${path.slice(0, 256)}…`);
  });

  it('headers over the limit → 431; a URL just under it is served', async () => {
    const s = await server();
    const big = await send(s.url, [`GET /api/x HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(20_000)}\r\n\r\n`]);
    expectShape(big, 431, 'REQUEST_HEADER_FIELDS_TOO_LARGE');
    expect(big.json.path).toBe('/api/x');
    const ok = await fetch(`${s.url}/api/x?pad=${'p'.repeat(15_000)}`);
    expect(ok.status).toBe(200);
  });

  it('serve({ maxHeaderSize }) sets the limit the message names', async () => {
    const s = await server({ maxHeaderSize: 4096 });
    const a = await send(s.url, [`GET /api/${'a'.repeat(5000)} HTTP/1.1\r\nHost: x\r\n\r\n`]);
    expectShape(a, 431, 'REQUEST_HEADER_FIELDS_TOO_LARGE');
    expect(a.json.message).toContain('4096 bytes');
  });

  it.each([
    ['a bad method', 'GE(T /api/x HTTP/1.1\r\nHost: x\r\n\r\n', 'Invalid method encountered'],
    ['a bad HTTP version', 'GET /api/x HTTP/9.Z\r\nHost: x\r\n\r\n', 'Invalid minor version'],
    ['a space in the URL', 'GET /api/a b HTTP/1.1\r\nHost: x\r\n\r\n', 'malformed request line (an unencoded space in the URL?)'],
    ['a bad header name', 'GET /api/x HTTP/1.1\r\nHost: x\r\nBad Header: 1\r\n\r\n', 'Invalid header token'],
    ['Content-Length and Transfer-Encoding together', 'POST /api/x HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n', "Transfer-Encoding can't be present with Content-Length"],
    ['a bad chunk size', 'POST /api/x HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n', 'Invalid character in chunk size'],
  ])('%s → 400 saying what was wrong', async (_what, request, reason) => {
    const s = await server();
    const a = await send(s.url, [request]);
    expectShape(a, 400, 'BAD_REQUEST');
    expect(a.json.message).toBe(`Bad request: ${reason}`);
  });

  it('a pipelined good request is answered first, then the error', async () => {
    const s = await server();
    const a = await send(s.url, ['GET /api/x HTTP/1.1\r\nHost: x\r\n\r\nGE(T / HTTP/1.1\r\nHost: x\r\n\r\n']);
    expect(a.raw.startsWith('HTTP/1.1 200')).toBe(true);
    expect(a.raw).toContain('"x": 1');
    expectShape(a, 400, 'BAD_REQUEST');
  });

  it('a client still sending headers after the limit (2 MB of them) reads the 431 whole, without a reset', async () => {
    const s = await server();
    let left = 2 * 1024 * 1024;
    const piece = Buffer.from(`X-Pad: ${'p'.repeat(8000)}\r\n`);
    const a = await send(s.url, ['GET /api/x HTTP/1.1\r\nHost: x\r\n'], () => {
      if (left <= 0) return undefined;
      left -= piece.length;
      return piece;
    });
    expectShape(a, 431, 'REQUEST_HEADER_FIELDS_TOO_LARGE');
  });
});
