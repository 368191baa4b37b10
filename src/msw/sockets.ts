/**
 * The WebSocket seam (src/core/socket.ts) over a socket intercepted by msw (the worker host in a
 * page, `handlersFor` wherever the app runs msw).
 *
 * A connection is offered to the engines through THE dispatch (host/dispatch.ts `upgradeFrom`:
 * each engine with `upgrade` whose prefixes cover the path, in order): `undefined` → next engine (none left → the real server), a Response → refused (the
 * page sees close 1006, as after a failed handshake), a SocketAccept → accepted. Messages the
 * page sends before the engine has answered are buffered and delivered in order.
 *
 * Limits of the page host: there are no ping frames (`ping()` returns false, so heartbeats
 * never terminate a page socket), `bufferedAmount` is 0, and only sockets opened by this page
 * are seen (MSW replaces this page's `WebSocket`; other tabs and workers are not intercepted).
 */
import type { Engine } from '../core/engine.js';
import type { SocketPeer, SocketSession } from '../core/socket.js';
import type { PageSocket, SocketRoute } from './routes.js';
import { coveredBy, upgradeFrom } from '../host/dispatch.js';

type Incoming = string | ArrayBuffer | ArrayBufferView | Blob;

async function toFrame(data: Incoming): Promise<string | Uint8Array> {
  if (typeof data === 'string') return data;
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  return new Uint8Array(await data.arrayBuffer());
}

/** The handshake as a platform Request (`ws://host/api/chat?x=1` → `http://host/api/chat?x=1`). */
function handshakeRequest(url: URL): Request {
  const httpUrl = new URL(url);
  httpUrl.protocol = url.protocol === 'wss:' ? 'https:' : 'http:';
  return new Request(httpUrl, { headers: { upgrade: 'websocket', connection: 'Upgrade' } });
}

function connectTo(engines: readonly Engine[], socket: PageSocket): Promise<void | 'passthrough'> {
  let session: SocketSession | undefined;
  let ended = false;
  let closeInfo: [number, string] | undefined;
  const pending: Incoming[] = [];
  // One chain keeps frames in order even when a Blob must be read first.
  let chain: Promise<void> = Promise.resolve();
  const deliver = (data: Incoming) => {
    chain = chain.then(async () => {
      const frame = await toFrame(data);
      session?.message(frame);
    }).catch((err: unknown) => session?.error?.(err));
  };
  const end = (code: number, reason: string) => {
    if (ended) return;
    ended = true;
    closeInfo = [code, reason];
    // After the frames already received; a session not yet created is closed once it exists.
    if (session) chain = chain.then(() => session!.close(code, reason));
  };
  socket.onMessage((data) => (session ? deliver(data) : pending.push(data)));
  socket.onClose((code, reason) => end(code, reason));

  const peer: SocketPeer = {
    send(data) {
      if (ended) return;
      if (typeof data === 'string') socket.send(data);
      else {
        const copy = data.slice().buffer as ArrayBuffer;
        socket.send(socket.binaryType === 'arraybuffer' ? copy : new Blob([copy]));
      }
    },
    close(code = 1000, reason = '') {
      socket.close(code, reason);
      end(code, reason);
    },
    terminate() {
      socket.close(1006, '');
      end(1006, '');
    },
    ping: () => false,
    get bufferedAmount() {
      return 0;
    },
  };

  return (async () => {
    const request = handshakeRequest(socket.url);
    const result = await upgradeFrom(engines, request, socket.url.pathname);
    if (result === undefined) return 'passthrough';
    if (typeof result !== 'function') {
      // A refused handshake: the browser reports 1006 (abnormal closure), never the status.
      socket.close(1006, `Handshake refused with HTTP ${result.status}`);
      ended = true;
      return;
    }
    session = result(peer);
    for (const data of pending.splice(0)) deliver(data);
    if (closeInfo) {
      const [code, reason] = closeInfo;
      chain = chain.then(() => session!.close(code, reason));
    }
  })();
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * One socket route covering every engine that accepts WebSockets, on the host of `origin` (the
 * page's), or on any host when `origin` is undefined (`handlersFor` in Node).
 */
export function socketRoute(engines: readonly Engine[], origin: string | undefined): SocketRoute | undefined {
  const withWs = engines.filter((e) => typeof e.upgrade === 'function');
  if (withWs.length === 0) return undefined;
  const host = origin === undefined ? undefined : new URL(origin).host;
  const prefixes = [...new Set(withWs.flatMap((e) => e.prefixes))];
  // Same host, under a prefix: other sockets (a dev server's HMR socket…) are left to the browser.
  const hostPattern = host === undefined ? '[^/?#]+' : escapeRegExp(host);
  const pattern = new RegExp(`^wss?://${hostPattern}(?:${prefixes.map((p) => escapeRegExp(p.replace(/\/$/, ''))).join('|')})(?:[/?#]|$)`);
  return {
    pattern,
    test: (url) => (host === undefined || url.host === host) && coveredBy(withWs, url.pathname),
    connect: (socket) => connectTo(withWs, socket),
  };
}
