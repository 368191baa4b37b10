/**
 * The smallest page: `startWorker` with a ready engine (no mock API / collector needed), so the
 * host itself is tested on its own: routing by prefix, passthrough, bodies, gzip decoding,
 * WebSocket seam. The page exposes `window.mockyard` for the test to drive.
 */
import { startWorker } from 'mockyard/browser';
import type { Engine } from '../../../src/core/engine.js';
import type { SocketPeer } from '../../../src/core/socket.js';

const peers = new Set<SocketPeer>();
let last: unknown = null;

const echo: Engine = {
  prefixes: ['/echo'],
  async handle(request) {
    const url = new URL(request.url);
    if (url.pathname === '/echo/pass') return undefined;
    if (url.pathname === '/echo/last') return Response.json(last);
    if (url.pathname === '/echo/gzip') {
      const body = new Blob([JSON.stringify({ compressed: true })]).stream().pipeThrough(new CompressionStream('gzip'));
      return new Response(body, { headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' } });
    }
    const bytes = new Uint8Array(await request.arrayBuffer());
    const digest = Array.from(new Uint8Array(await crypto.subtle.digest('SHA-256', bytes)), (b) => b.toString(16).padStart(2, '0')).join('');
    last = {
      method: request.method,
      path: url.pathname,
      search: url.search,
      contentType: request.headers.get('content-type'),
      contentEncoding: request.headers.get('content-encoding'),
      size: bytes.byteLength,
      sha256: digest,
      head: Array.from(bytes.subarray(0, 4)),
    };
    return Response.json(last);
  },
  upgrade(request) {
    const url = new URL(request.url);
    if (url.pathname === '/echo/refuse') return new Response(null, { status: 401 });
    if (url.pathname !== '/echo/ws') return undefined;
    return (peer) => {
      peers.add(peer);
      return {
        message(data) {
          for (const p of peers) p.send(typeof data === 'string' ? `echo:${data}` : data);
        },
        close() {
          peers.delete(peer);
        },
      };
    };
  },
};

const params = new URLSearchParams(location.search);
const status = document.getElementById('status')!;
const started = startWorker({ mock: echo, quiet: true, serviceWorker: { url: params.get('worker') ?? '/mockServiceWorker.js' } });
Object.assign(window, {
  mockyard: {
    started: started.then(() => 'ok', (err: Error) => err.message),
    stop: () => started.then((w) => w.stop()),
    /** For option-error tests: the rejection message of a second startWorker call. */
    tryStart: (options: unknown) => startWorker(options as Parameters<typeof startWorker>[0]).then(() => 'started', (err: Error) => err.message),
  },
});
started.then(
  () => (status.textContent = 'ready'),
  (err: Error) => (status.textContent = `error: ${err.message}`),
);
