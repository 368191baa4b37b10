/**
 * A client streaming a body far over the limit always reads the 413: the node
 * host answers as soon as the limit is crossed, then keeps reading and discarding (lingering
 * close) instead of closing a socket with unread input, which makes the kernel reset the
 * connection and can destroy the answer before the client reads it. Real server, real sockets.
 * (Memory staying flat while it discards is measured in bench/oversized-body.mjs.)
 */
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { memoryFs } from '../../src/vfs/memory.js';
import { closeServers, startServer } from '../helpers/server.js';

afterEach(closeServers);

const MB = 1024 * 1024;
const CHUNK = 64 * 1024;

/** fetch (undici) POSTing a `total`-byte stream: the answer it reads, or the error it got. */
async function fetchStreaming(url: string, total: number): Promise<{ status?: number; body?: string; error?: string }> {
  const chunk = new Uint8Array(CHUNK).fill(0x61);
  let sent = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= total) return controller.close();
      sent += chunk.length;
      controller.enqueue(chunk);
    },
  });
  try {
    const res = await fetch(url, { method: 'POST', body, duplex: 'half', headers: { 'content-type': 'application/json' } } as RequestInit);
    return { status: res.status, body: await res.text() };
  } catch (err) {
    const e = err as Error & { cause?: { code?: string } };
    return { error: e.cause?.code ?? e.message };
  }
}

interface RawOutcome {
  /** Everything the server sent. */
  response: string;
  /** A socket error (EPIPE, ECONNRESET: the server reset the connection), if any. */
  error?: string;
}

/**
 * A plain uploader on a raw socket: sends the request head, then `total` bytes chunked (or with
 * Content-Length) as fast as the socket takes them, whatever the server answers meanwhile
 * (half-open: the server's FIN does not stop it), then ends and collects what it received.
 */
function rawUpload(url: string, total: number, chunked: boolean): Promise<RawOutcome> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port), allowHalfOpen: true });
    const outcome: RawOutcome = { response: '' };
    socket.setEncoding('latin1');
    socket.on('data', (d: string) => (outcome.response += d));
    socket.on('error', (err: NodeJS.ErrnoException) => (outcome.error ??= err.code ?? err.message));
    socket.on('close', () => resolve(outcome));
    const head = chunked ? 'Transfer-Encoding: chunked' : `Content-Length: ${total}`;
    socket.write(`POST /api/things HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n${head}\r\n\r\n`);
    const data = Buffer.alloc(CHUNK, 0x61);
    const frame = chunked ? Buffer.concat([Buffer.from(`${CHUNK.toString(16)}\r\n`), data, Buffer.from('\r\n')]) : data;
    let sent = 0;
    const pump = () => {
      while (sent < total && !socket.destroyed) {
        sent += CHUNK;
        if (!socket.write(frame)) return void socket.once('drain', pump);
      }
      if (socket.destroyed) return;
      if (chunked) socket.end('0\r\n\r\n');
      else socket.end();
    };
    pump();
  });
}

function expect413(response: string) {
  const split = response.indexOf('\r\n\r\n');
  expect(response.slice(0, 12)).toBe('HTTP/1.1 413');
  expect(response.slice(0, split).toLowerCase()).toContain('connection: close');
  expect(JSON.parse(response.slice(split + 4))).toMatchObject({ status: 413, error: 'PAYLOAD_TOO_LARGE', path: '/api/things' });
}

describe('an oversized body (50 MB, limit 1 MiB)', () => {
  it('fetch streaming it chunked reads the whole JSON 413 every time, twenty times in a row', async () => {
    const server = await startServer({ mock: { endpointPrefix: '/api', fs: memoryFs({}), bodyLimit: MB, logLevel: 'silent' } });
    const outcomes: string[] = [];
    for (let i = 0; i < 20; i++) {
      const r = await fetchStreaming(`${server.url}/api/things`, 50 * MB);
      const body = r.body === undefined ? undefined : (JSON.parse(r.body) as Record<string, unknown>);
      outcomes.push(r.error ?? `${r.status} ${body?.error}`);
    }
    expect(outcomes).toEqual(Array(20).fill('413 PAYLOAD_TOO_LARGE'));
    expect((await fetch(`${server.url}/api/missing`)).status).toBe(404); // still serving
  }, 120_000);

  it('the server never resets the connection: it answers, half-closes, and reads on until the client is done', async () => {
    // Closing a socket with unread input makes the kernel answer the next bytes with a reset, which
    // the uploader sees as EPIPE/ECONNRESET (and which can wipe the 413 before it is read).
    const server = await startServer({ mock: { endpointPrefix: '/api', fs: memoryFs({}), bodyLimit: MB, logLevel: 'silent' } });
    for (const chunked of [true, false]) {
      for (let i = 0; i < 3; i++) {
        const r = await rawUpload(server.url, 50 * MB, chunked);
        expect(r.error).toBeUndefined();
        expect413(r.response);
      }
    }
  }, 120_000);
});
