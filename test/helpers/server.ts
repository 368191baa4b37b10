/**
 * Real servers for integration tests: `startServer()` runs `serve()` on 127.0.0.1 port 0 and
 * `closeServers()` (call it in afterEach) stops every one started; `rawRequest()` is a node:http
 * client for what fetch cannot send (GET with a body, bodies sent slowly, HEAD details);
 * `fakeEngine()` builds a tiny Engine from a handler.
 */
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { Engine } from '../../src/core/engine.js';
import type { UpgradeResult } from '../../src/core/socket.js';
import { serve, type RunningServer, type ServeOptions } from '../../src/node/serve.js';

const running: RunningServer[] = [];

export async function startServer(options: ServeOptions = {}): Promise<RunningServer> {
  const server = await serve({ port: 0, host: '127.0.0.1', logLevel: 'silent', ...options });
  running.push(server);
  return server;
}

export async function closeServers(): Promise<void> {
  await Promise.all(running.splice(0).map((s) => s.close()));
}

export interface FakeEngineOptions {
  prefixes?: string[];
  handle?: (request: Request) => Promise<Response | undefined> | Response | undefined;
  upgrade?: (request: Request) => Promise<UpgradeResult> | UpgradeResult;
}

export function fakeEngine(options: FakeEngineOptions): Engine & { closed: boolean } {
  const engine = {
    prefixes: options.prefixes ?? ['/'],
    closed: false,
    async handle(request: Request) {
      return options.handle ? options.handle(request) : undefined;
    },
    async close() {
      engine.closed = true;
    },
  } as Engine & { closed: boolean };
  if (options.upgrade) (engine as { upgrade?: Engine['upgrade'] }).upgrade = options.upgrade;
  return engine;
}

export interface RawResponse {
  status: number;
  /** The reason phrase. */
  statusMessage: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface RawRequestOptions {
  method?: string;
  path: string;
  headers?: Record<string, string | number>;
  /** Written in order; with `endBody: false` the request is left open after them. */
  body?: Array<string | Uint8Array> | string | Uint8Array;
  endBody?: boolean;
}

/** A request through node:http (one connection, no agent); resolves with the whole response. */
export function rawRequest(baseUrl: string, options: RawRequestOptions): Promise<RawResponse> {
  const url = new URL(options.path, baseUrl);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: url.hostname, port: url.port, path: url.pathname + url.search, method: options.method ?? 'GET', headers: options.headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, statusMessage: res.statusMessage ?? '', headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    const body = options.body === undefined ? [] : Array.isArray(options.body) ? options.body : [options.body];
    for (const chunk of body) req.write(chunk);
    if (options.endBody !== false) req.end();
    else req.flushHeaders();
  });
}
