/**
 * A static file server on 127.0.0.1 for the built pages, which also COUNTS every request it
 * receives by path: a request that the service worker answered never shows up here, so tests
 * assert "no mocked request reached the network" on these counts.
 *
 * Extra routes: `GET /__requests` (the counts as JSON), `POST /__requests/reset`.
 */
import { createServer, request as httpRequest, type Server } from 'node:http';
import { connect } from 'node:net';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

export interface StaticServer {
  url: string;
  server: Server;
  close(): Promise<void>;
}

export interface ProxyOptions {
  /** Path prefixes forwarded (HTTP and WebSocket upgrades), like a dev server's proxy. */
  prefixes: string[];
  /** `http://127.0.0.1:PORT` of the node host. */
  target: string;
}

export async function startStaticServer(dir: string, extra: Record<string, string> = {}, proxy?: ProxyOptions): Promise<StaticServer> {
  const counts = new Map<string, number>();
  const proxied = (path: string) => proxy?.prefixes.some((p) => path === p || path.startsWith(`${p}/`)) ?? false;
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/__requests') {
      if (req.method === 'POST') counts.clear();
      res.setHeader('content-type', 'application/json');
      res.setHeader('cache-control', 'no-store');
      res.end(JSON.stringify(Object.fromEntries(counts)));
      return;
    }
    counts.set(url.pathname, (counts.get(url.pathname) ?? 0) + 1);
    if (proxy && proxied(url.pathname)) {
      const target = new URL(proxy.target);
      const upstream = httpRequest({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host } }, (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      });
      upstream.on('error', () => {
        res.statusCode = 502;
        res.end();
      });
      req.pipe(upstream);
      return;
    }
    res.setHeader('cache-control', 'no-store');
    if (url.pathname in extra) {
      res.setHeader('content-type', 'text/javascript; charset=utf-8');
      res.end(extra[url.pathname]);
      return;
    }
    const rel = normalize(decodeURIComponent(url.pathname)).replace(/^([/\\])+/, '');
    if (rel.startsWith('..')) {
      res.statusCode = 400;
      res.end();
      return;
    }
    let file = join(dir, rel || 'index.html');
    if ((await stat(file).catch(() => null))?.isDirectory()) file = join(file, 'index.html');
    try {
      const body = await readFile(file);
      res.setHeader('content-type', TYPES[extname(file)] ?? 'application/octet-stream');
      res.end(body);
    } catch {
      res.statusCode = 404;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ error: 'Not found on the static server' }));
    }
  });
  // WebSocket upgrades under the proxied prefixes: a raw TCP pipe to the node host.
  server.on('upgrade', (req, socket, head) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    counts.set(path, (counts.get(path) ?? 0) + 1);
    if (!proxy || !proxied(path)) {
      socket.destroy();
      return;
    }
    const target = new URL(proxy.target);
    const up = connect(Number(target.port), target.hostname, () => {
      const lines = [`${req.method} ${req.url} HTTP/1.1`];
      for (let i = 0; i < req.rawHeaders.length; i += 2) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
      up.write(`${lines.join('\r\n')}\r\n\r\n`);
      if (head.length) up.write(head);
      up.pipe(socket);
      socket.pipe(up);
    });
    up.on('error', () => socket.destroy());
    socket.on('error', () => up.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
