/**
 * A real webhook receiver for tests: a node:http server on 127.0.0.1 port 0 that keeps every
 * request it gets (method, path, headers, the exact body bytes) and answers with the statuses
 * given in order (the last one repeats; default 200). `next(n)` waits until n requests came.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';

export interface ReceivedHook {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  json(): unknown;
}

export interface WebhookReceiver {
  readonly url: string;
  readonly received: ReceivedHook[];
  /** Resolves once `count` requests were received in all. */
  next(count: number): Promise<ReceivedHook[]>;
  close(): Promise<void>;
}

export async function startReceiver(statuses: number[] = [200]): Promise<WebhookReceiver> {
  const received: ReceivedHook[] = [];
  const waiters: Array<{ count: number; resolve: (r: ReceivedHook[]) => void }> = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      received.push({ method: req.method!, url: req.url!, headers: req.headers, body, json: () => JSON.parse(body.toString('utf8')) });
      const status = statuses[Math.min(received.length - 1, statuses.length - 1)]!;
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ok: status < 300 }));
      for (const w of [...waiters]) if (received.length >= w.count) waiters.splice(waiters.indexOf(w), 1), w.resolve(received.slice());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    next: (count) => (received.length >= count ? Promise.resolve(received.slice()) : new Promise((resolve) => waiters.push({ count, resolve }))),
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
