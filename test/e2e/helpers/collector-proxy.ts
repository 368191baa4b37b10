/**
 * A TCP-level stand-in for the network between Chromium and a real collector: forwards HTTP and
 * WebSocket upgrades to `target`, and lets a test add latency, take the collector "down" (every
 * connection destroyed: the browser sees a network error), lose the collector's WebSocket answers
 * (the data reached the collector, its acks never come back) and drop every open WebSocket.
 * `inFlight` counts HTTP requests received and not yet answered (the test waits for 0 before it
 * counts, so a late beacon cannot arrive after the count).
 */
import { createServer, request as httpRequest } from 'node:http';
import { connect, type Socket } from 'node:net';

export interface CollectorProxy {
  url: string;
  latency: number;
  down: boolean;
  loseAcks: boolean;
  readonly inFlight: number;
  /** Requests received per path (beacons and fetches alike). */
  readonly received: number;
  dropSockets(): void;
  close(): Promise<void>;
}

export async function startCollectorProxy(target: string): Promise<CollectorProxy> {
  const t = new URL(target);
  const sockets = new Set<Socket>();
  let inFlight = 0;
  let received = 0;
  const state = { latency: 0, down: false, loseAcks: false };

  const server = createServer((req, res) => {
    if (state.down) {
      req.socket.destroy();
      return;
    }
    received += 1;
    inFlight += 1;
    let done = false;
    const finish = () => {
      if (!done) {
        done = true;
        inFlight -= 1;
      }
    };
    res.on('close', finish);
    const forward = () => {
      const up = httpRequest({ host: t.hostname, port: t.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      up.on('error', () => {
        res.statusCode = 502;
        res.end();
      });
      req.pipe(up);
    };
    if (state.latency) setTimeout(forward, state.latency);
    else forward();
  });
  server.on('upgrade', (req, socket, head) => {
    if (state.down) {
      socket.destroy();
      return;
    }
    const up = connect(Number(t.port), t.hostname, () => {
      const lines = [`${req.method} ${req.url} HTTP/1.1`];
      for (let i = 0; i < req.rawHeaders.length; i += 2) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
      up.write(`${lines.join('\r\n')}\r\n\r\n`);
      if (head.length) up.write(head);
      up.on('data', (chunk: Buffer) => {
        if (!state.loseAcks) socket.write(chunk);
      });
      socket.pipe(up);
    });
    sockets.add(socket as Socket);
    sockets.add(up);
    const forget = () => {
      sockets.delete(socket as Socket);
      sockets.delete(up);
      socket.destroy();
      up.destroy();
    };
    up.on('error', forget);
    up.on('close', forget);
    socket.on('error', forget);
    socket.on('close', forget);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    get latency() {
      return state.latency;
    },
    set latency(ms: number) {
      state.latency = ms;
    },
    get down() {
      return state.down;
    },
    set down(v: boolean) {
      state.down = v;
    },
    get loseAcks() {
      return state.loseAcks;
    },
    set loseAcks(v: boolean) {
      state.loseAcks = v;
    },
    get inFlight() {
      return inFlight;
    },
    get received() {
      return received;
    },
    dropSockets() {
      for (const s of [...sockets]) s.destroy();
      sockets.clear();
    },
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
