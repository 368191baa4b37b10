/**
 * A real upstream API for proxy and record tests: a node:http server on 127.0.0.1 port 0 whose
 * answers the test programs (`handler`), remembering what it received. `closeUpstreams()` (call
 * it in afterEach) stops every one started, dropping connections held open.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface Upstream {
  url: string;
  port: number;
  seen: SeenRequest[];
  server: Server;
  close(): Promise<void>;
}

export type UpstreamHandler = (req: IncomingMessage, res: ServerResponse, body: () => Promise<Buffer>) => void | Promise<void>;

const started: Upstream[] = [];

function readAll(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/**
 * Starts an upstream. Without `streaming`, the handler runs once the whole request body is
 * read (and `seen` has it); with it, the handler gets the live request and reads it itself.
 */
export async function startUpstream(handler: UpstreamHandler, options: { streaming?: boolean } = {}): Promise<Upstream> {
  const seen: SeenRequest[] = [];
  const server = createServer((req, res) => {
    const entry: SeenRequest = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.alloc(0) };
    seen.push(entry);
    if (options.streaming) {
      void handler(req, res, () => readAll(req));
      return;
    }
    readAll(req).then((body) => {
      entry.body = body;
      return handler(req, res, async () => body);
    }).catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const upstream: Upstream = {
    url: `http://127.0.0.1:${port}`,
    port,
    seen,
    server,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
  started.push(upstream);
  return upstream;
}

export async function closeUpstreams(): Promise<void> {
  await Promise.all(started.splice(0).map((u) => (u.server.listening ? u.close() : undefined)));
}

/** A URL where nothing listens (a port just freed). */
export async function deadUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
