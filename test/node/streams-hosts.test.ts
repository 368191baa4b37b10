/**
 * Streamed answers in the other hosts: the Vite dev server (the plugin, connect middleware),
 * Express (createMiddleware), interceptFetch and handlersFor (msw's setupServer). Each proves
 * live delivery with a gate (event 2 is yielded only once the client read event 1: a host that
 * buffered the body would deadlock and fail by the test's timeout; the same for Express-style
 * `res.write`), a recorded `.sse` file
 * replayed, and the client going away ending the generator (its `finally` runs).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import express from 'express';
import { setupServer } from 'msw/node';
import { createServer as createViteServer } from 'vite';
import { afterEach, describe, expect, it } from 'vitest';
import { createMockApi } from '../../src/engine/create-mock-api.js';
import type { RestHandler } from '../../src/engine/types.js';
import type { MockApiOptions } from '../../src/engine/mock-api-options.js';
import { sse } from '../../src/engine/streams/responses.js';
import { handlersFor } from '../../src/msw/index.js';
import { createMiddleware } from '../../src/node/middleware.js';
import { mockyard } from '../../src/node/vite.js';
import { interceptFetch } from '../../src/test/index.js';
import { memoryFs } from '../../src/vfs/memory.js';
import { makeTempDir, removeTempDirs } from '../helpers/temp-dir.js';

const cleanups: Array<() => Promise<unknown> | unknown> = [];
afterEach(async () => {
  for (const f of cleanups.splice(0).reverse()) await f();
  await removeTempDirs();
});

function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

const RECORDED = 'delay: 0\nid: 1\ndata: first\n\ndelay: 20\nid: 2\ndata: second\n\n';

/** The handlers every host serves: a gated stream and an endless one whose `finally` reports. */
function streamHandlers() {
  const gate = deferred();
  const writeGate = deferred();
  const ended = deferred<boolean>();
  const handlers: RestHandler[] = [
    { pattern: '/written', handle: (_req, res) => {
      res.setHeader('Content-Type', 'text/event-stream');
      res.write('data: one\n\n');
      void writeGate.promise.then(() => res.end('data: two\n\n'));
    } },
    { pattern: '/gated', handle: () => sse(async function* () {
      yield { id: 1, data: 'one' };
      await gate.promise;
      yield { id: 2, data: 'two' };
    }) },
    { pattern: '/endless', handle: () => sse(async function* ({ signal }) {
      try {
        for (let n = 1; ; n++) {
          yield { data: String(n) };
          await new Promise((r) => setTimeout(r, 5));
        }
      } finally {
        ended.resolve(signal.aborted);
      }
    }) },
  ];
  return { gate, writeGate, ended, handlers };
}

/** Reads SSE events off a fetch body as they come. */
function events(response: Response): { next(): Promise<string | undefined> } {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  return {
    async next() {
      for (;;) {
        const end = text.indexOf('\n\n');
        if (end !== -1) {
          const event = text.slice(0, end);
          text = text.slice(end + 2);
          return event;
        }
        const { done, value } = await reader.read();
        if (done) return undefined;
        text += decoder.decode(value, { stream: true });
      }
    },
  };
}

/** The same three checks against a base URL served by some host. */
async function checkHost(base: string, s: ReturnType<typeof streamHandlers>, doFetch: typeof fetch = fetch): Promise<void> {
  const gated = await doFetch(`${base}/api/gated`);
  expect(gated.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
  const e = events(gated);
  expect(await e.next()).toBe('id: 1\ndata: one');
  s.gate.resolve();
  expect(await e.next()).toBe('id: 2\ndata: two');
  expect(await e.next()).toBeUndefined();

  const written = events(await doFetch(`${base}/api/written`)); // Express style: res.write
  expect(await written.next()).toBe('data: one');
  s.writeGate.resolve();
  expect(await written.next()).toBe('data: two');
  expect(await written.next()).toBeUndefined();

  expect(await (await doFetch(`${base}/api/chat?__speed=0`)).text()).toBe('id: 1\ndata: first\n\nid: 2\ndata: second\n\n');

  const abort = new AbortController();
  const endless = events(await doFetch(`${base}/api/endless`, { signal: abort.signal }));
  expect(await endless.next()).toBe('data: 1');
  expect(await endless.next()).toBe('data: 2');
  abort.abort();
  expect(await s.ended.promise).toBe(true);
}

async function mocksDir(): Promise<string> {
  const root = await makeTempDir();
  await mkdir(join(root, 'mocks'), { recursive: true });
  await writeFile(join(root, 'mocks', 'chat.sse'), RECORDED);
  return root;
}

describe('streams in every host', () => {
  it('the Vite dev server (the mockyard plugin)', async () => {
    const root = await mocksDir();
    const s = streamHandlers();
    const vite = await createViteServer({
      root,
      configFile: false,
      logLevel: 'silent',
      server: { port: 0, host: '127.0.0.1', strictPort: false },
      plugins: [mockyard({ mock: { endpointPrefix: '/api', fsDir: 'mocks', handlers: s.handlers, logLevel: 'silent' }, logLevel: 'silent' })],
    });
    cleanups.push(() => vite.close());
    await vite.listen();
    await checkHost(`http://127.0.0.1:${(vite.httpServer!.address() as AddressInfo).port}`, s);
  });

  it('Express with createMiddleware', async () => {
    const root = await mocksDir();
    const s = streamHandlers();
    const mw = await createMiddleware({ mock: { endpointPrefix: '/api', fsDir: join(root, 'mocks'), handlers: s.handlers, logLevel: 'silent' }, logLevel: 'silent' });
    cleanups.push(() => mw.close());
    const app = express();
    app.use(mw);
    const server: Server = createServer(app);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    cleanups.push(() => new Promise((r) => {
      server.closeAllConnections();
      server.close(r);
    }));
    await checkHost(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, s);
  });

  const engineOptions = (s: ReturnType<typeof streamHandlers>): MockApiOptions => ({ endpointPrefix: '/api', fs: memoryFs({ 'chat.sse': RECORDED }), handlers: s.handlers, logLevel: 'silent' });

  it('interceptFetch', async () => {
    const s = streamHandlers();
    const api = createMockApi(engineOptions(s));
    const mocked = interceptFetch(api, { baseUrl: 'http://app.test' });
    cleanups.push(async () => {
      mocked.restore();
      await api.close();
    });
    await checkHost('http://app.test', s);
  });

  it('interceptFetch: a request aborted before its streamed answer came cancels that answer (the handler hears close)', async () => {
    const started = deferred();
    const gate = deferred();
    const closed = deferred();
    const api = createMockApi({ endpointPrefix: '/api', fs: memoryFs(), logLevel: 'silent', handlers: [{ pattern: '/late', handle: async (_req, res) => {
      started.resolve();
      await gate.promise; // the page aborts meanwhile
      res.on('close', () => closed.resolve());
      res.setHeader('Content-Type', 'text/event-stream');
      res.write('data: one\n\n');
    } }] });
    const mocked = interceptFetch(api, { baseUrl: 'http://app.test' });
    cleanups.push(async () => {
      mocked.restore();
      await api.close();
    });
    const abort = new AbortController();
    const call = fetch('http://app.test/api/late', { signal: abort.signal });
    await started.promise;
    abort.abort();
    await expect(call).rejects.toThrow(/abort/i);
    gate.resolve();
    await closed.promise; // the test's timeout is the failure
  });

  it('interceptFetch: a slowed stream (slow-body fault) still ends its generator when the page aborts', async () => {
    const ended = deferred();
    const api = createMockApi({
      endpointPrefix: '/api', fs: memoryFs(), logLevel: 'silent',
      faults: [{ path: '/slow', fault: { type: 'slow-body', bytesPerSecond: 100000 } }],
      handlers: [{ pattern: '/slow', handle: () => sse(async function* () {
        try {
          for (let n = 1; ; n++) yield { data: String(n) };
        } finally {
          ended.resolve();
        }
      }) }],
    });
    const mocked = interceptFetch(api, { baseUrl: 'http://app.test' });
    cleanups.push(async () => {
      mocked.restore();
      await api.close();
    });
    const abort = new AbortController();
    const e = events(await fetch('http://app.test/api/slow', { signal: abort.signal }));
    expect(await e.next()).toBe('data: 1');
    abort.abort();
    await ended.promise; // the test's timeout is the failure
  });

  it('interceptFetch and handlersFor: a stream dropped by a network-error fault is cancelled (the handler hears close)', async () => {
    for (const host of ['interceptFetch', 'handlersFor'] as const) {
      const closed = deferred();
      const api = createMockApi({
        endpointPrefix: '/api', fs: memoryFs(), logLevel: 'silent',
        faults: [{ path: '/cut', fault: 'truncated-body' }],
        handlers: [{ pattern: '/cut', handle: (_req, res) => {
          res.on('close', () => closed.resolve());
          res.setHeader('Content-Type', 'text/event-stream');
          res.write('data: one\n\n');
        } }],
      });
      const base = host === 'interceptFetch' ? 'http://app.test' : 'http://api.test';
      let stop: () => void;
      if (host === 'interceptFetch') stop = interceptFetch(api, { baseUrl: base }).restore;
      else {
        const server = setupServer(...handlersFor(api, { baseUrl: base }));
        server.listen({ onUnhandledRequest: 'error' });
        stop = () => server.close();
      }
      cleanups.push(async () => {
        stop();
        await api.close();
      });
      await expect(fetch(`${base}/api/cut`)).rejects.toThrow();
      await closed.promise; // the test's timeout is the failure
      for (const f of cleanups.splice(0).reverse()) await f();
    }
  });

  it('handlersFor (msw setupServer)', async () => {
    const s = streamHandlers();
    const api = createMockApi(engineOptions(s));
    const server = setupServer(...handlersFor(api, { baseUrl: 'http://api.test' }));
    server.listen({ onUnhandledRequest: 'error' });
    cleanups.push(async () => {
      server.close();
      await api.close();
    });
    await checkHost('http://api.test', s);
  });
});
