/**
 * A Response as the raw bytes of a complete HTTP/1.1 answer that closes the connection, for the
 * places where the node host writes on a socket itself instead of through a ServerResponse:
 * refused WebSocket handshakes (upgrade.ts) and requests the HTTP parser refused (client-error.ts).
 * Content-Length is computed, `Connection: close` is set, and header lines carrying CR/LF are
 * dropped (no response splitting).
 */
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { fastBodyBytes, fastState } from '../core/fast-response.js';

function serialise(status: number, statusText: string, headers: Iterable<[string, string]>, body: Uint8Array): Buffer {
  const lines = [`HTTP/1.1 ${status} ${statusText || STATUS_CODES[status] || ''}`];
  for (const [name, value] of headers) {
    const lower = name.toLowerCase();
    if (lower === 'content-length' || lower === 'connection' || lower === 'transfer-encoding') continue;
    if (/[\r\n]/.test(name) || /[\r\n]/.test(value)) continue;
    lines.push(`${name}: ${value}`);
  }
  lines.push(`Content-Length: ${body.byteLength}`, 'Connection: close', '', '');
  return Buffer.concat([Buffer.from(lines.join('\r\n'), 'latin1'), body]);
}

/** The bytes of a FastResponse (engines' error bodies), synchronously; undefined for a native Response. */
export function rawFastResponseBytes(response: Response): Buffer | undefined {
  const state = fastState(response);
  if (state === undefined) return undefined;
  return serialise(state.status, state.statusText, Object.entries(state.headers), fastBodyBytes(state) ?? new Uint8Array(0));
}

/** The bytes of any Response. */
export async function rawResponseBytes(response: Response): Promise<Buffer> {
  return rawFastResponseBytes(response) ?? serialise(response.status, response.statusText, response.headers, new Uint8Array(await response.arrayBuffer()));
}

/** Writes a complete HTTP response on a raw socket and ends it (refused handshakes). */
export async function writeRawResponse(socket: Duplex, response: Response): Promise<void> {
  const bytes = await rawResponseBytes(response);
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  socket.end(bytes);
}
