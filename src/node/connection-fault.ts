/**
 * The node host's side of connection faults (core/connection-fault.ts): what the engine marked
 * on the Request is done to the socket instead of writing the answer normally.
 *
 *   connection-reset  socket reset (RST) before any byte: the client sees ECONNRESET
 *   truncated-body    head with the full Content-Length, the first half of the body, then close
 *   malformed-chunk   head with Transfer-Encoding: chunked, a chunk-size line that is not hex,
 *                     then close
 *   slow-body         head, then the body at `bytesPerSecond` (a piece every 100 ms); stops
 *                     when the client goes away
 *   no-answer         nothing; the socket stays open until the client gives up (or the server
 *                     closes its connections)
 */
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { ConnectionFault } from '../core/connection-fault.js';
import { fastState } from '../core/fast-response.js';

async function bodyBytes(response: Response): Promise<Uint8Array> {
  const state = fastState(response);
  if (state !== undefined) {
    const body = state.body;
    if (body === null) return new Uint8Array(0);
    return typeof body === 'string' ? new TextEncoder().encode(body) : body;
  }
  return new Uint8Array(await response.arrayBuffer());
}

function headersOf(response: Response): OutgoingHttpHeaders {
  const state = fastState(response);
  const out: OutgoingHttpHeaders = {};
  if (state !== undefined) {
    for (const [k, v] of Object.entries(state.headers)) out[k.toLowerCase()] = v;
  } else {
    for (const [k, v] of response.headers) out[k] = v;
  }
  delete out['content-length'];
  delete out['transfer-encoding'];
  return out;
}

export async function writeConnectionFault(fault: ConnectionFault, response: Response, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const socket = req.socket;
  switch (fault.type) {
    case 'connection-reset':
      response.body?.cancel().catch(() => {});
      if (typeof socket.resetAndDestroy === 'function') socket.resetAndDestroy();
      else socket.destroy();
      return;
    case 'no-answer':
      response.body?.cancel().catch(() => {});
      return; // the client's timeout (or the server's close) ends it
    case 'truncated-body': {
      const bytes = await bodyBytes(response);
      const full = Math.max(bytes.byteLength, 1);
      res.writeHead(response.status, { ...headersOf(response), 'content-length': String(full) });
      const half = bytes.subarray(0, Math.floor(bytes.byteLength / 2));
      res.write(half, () => socket.destroy());
      return;
    }
    case 'malformed-chunk': {
      response.body?.cancel().catch(() => {});
      res.writeHead(response.status, { ...headersOf(response), 'transfer-encoding': 'chunked' });
      res.flushHeaders();
      socket.write('zz-not-a-chunk-size\r\nmockyard\r\n', () => socket.destroy());
      return;
    }
    case 'slow-body': {
      const bytes = await bodyBytes(response);
      res.writeHead(response.status, { ...headersOf(response), 'content-length': String(bytes.byteLength) });
      if (req.method === 'HEAD' || bytes.byteLength === 0) {
        res.end();
        return;
      }
      const perTick = Math.max(1, Math.floor((fault.bytesPerSecond ?? 1024) / 10));
      let at = 0;
      let timer: ReturnType<typeof setTimeout> | undefined;
      res.once('close', () => clearTimeout(timer));
      const tick = () => {
        if (res.destroyed) return;
        const piece = bytes.subarray(at, at + perTick);
        at += piece.byteLength;
        if (at >= bytes.byteLength) res.end(piece);
        else {
          res.write(piece);
          timer = setTimeout(tick, 100);
        }
      };
      res.flushHeaders();
      timer = setTimeout(tick, 100);
      return;
    }
  }
}
