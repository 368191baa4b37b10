/**
 * Streamed answers through the node host, with real clients on 127.0.0.1: `fetch` reading the
 * body chunk by chunk, the `eventsource` package. No timing assertions: live delivery is proven
 * with a gate (the handler sends event 2 only after the client acknowledged event 1, so a host
 * that batched the stream would never deliver event 1 and the test would fail by its timeout).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { EventSource } from 'eventsource';
import { afterEach, describe, expect, it } from 'vitest';
import { createNodeMockApi as createMockApi } from '../../src/node/engines.js';
import type { MockApiOptions } from '../../src/engine/mock-api-options.js';
import { ndjson, sse, textStream } from '../../src/engine/streams/responses.js';
import type { SseEvent } from '../../src/engine/streams/sse-format.js';
import { closeServers, startServer } from '../helpers/server.js';
import { makeTempDir, removeTempDirs } from '../helpers/temp-dir.js';

afterEach(async () => {
  await closeServers();
  await removeTempDirs();
});

/** A promise with its resolve function outside (the tests' side channel). */
function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

async function serveMock(options: Partial<MockApiOptions>): Promise<string> {
  const engine = createMockApi({ endpointPrefix: '/api', logLevel: 'silent', fsDir: null, ...options } as MockApiOptions);
  const server = await startServer({ mock: engine });
  return server.url;
}

/** Reads a fetch body chunk by chunk, decoded; `next()` resolves with the text of the next chunk. */
function chunks(response: Response): { next(): Promise<string | undefined>; cancel(): Promise<void> } {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  return {
    async next() {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return undefined;
        const text = decoder.decode(value, { stream: true });
        if (text !== '') return text;
      }
    },
    cancel: () => reader.cancel(),
  };
}

/** Reads SSE text until `count` events (blank-line terminated) arrived. */
async function readEvents(reader: { next(): Promise<string | undefined> }, count: number): Promise<string[]> {
  let text = '';
  for (;;) {
    const events = text.split('\n\n').filter((e) => e !== '');
    if (events.length >= count && text.endsWith('\n\n')) return events;
    const chunk = await reader.next();
    if (chunk === undefined) return events;
    text += chunk;
  }
}

describe('handler streams on the node host', () => {
  it('delivers each event as it is yielded (gate: event 2 waits for the client to have event 1)', async () => {
    const gate = deferred();
    const url = await serveMock({
      handlers: [{
        pattern: '/gated',
        handle: () => sse(async function* () {
          yield { id: 1, data: 'one' };
          await gate.promise; // the client has read event 1 (a batching host deadlocks here)
          yield { id: 2, event: 'last', data: { n: 2 } };
        }),
      }],
    });
    const response = await fetch(`${url}/api/gated`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(response.headers.get('content-length')).toBeNull();
    const reader = chunks(response);
    expect(await readEvents(reader, 1)).toEqual(['id: 1\ndata: one']);
    gate.resolve();
    expect(await readEvents(reader, 1)).toEqual(['id: 2\nevent: last\ndata: {"n":2}']);
    expect(await reader.next()).toBeUndefined();
  });

  it('sends the head before the first event (an EventSource opens while the handler still waits)', async () => {
    const gate = deferred();
    const url = await serveMock({
      handlers: [{ pattern: '/late', handle: () => sse(async function* () {
        await gate.promise;
        yield 'finally';
      }) }],
    });
    const response = await fetch(`${url}/api/late`); // resolves with the head: nothing yielded yet
    expect(response.status).toBe(200);
    gate.resolve();
    expect(await readEvents(chunks(response), 1)).toEqual(['data: finally']);
  });

  it('the client going away ends the generator (its finally runs: no leak)', async () => {
    const ended = deferred<string>();
    const sent: number[] = [];
    const url = await serveMock({
      handlers: [{ pattern: '/endless', handle: () => sse(async function* ({ signal }) {
        try {
          for (let n = 1; ; n++) {
            sent.push(n);
            yield { id: n, data: String(n) };
            await new Promise((r) => setTimeout(r, 5));
          }
        } finally {
          ended.resolve(signal.aborted ? 'aborted' : 'not aborted');
        }
      }) }],
    });
    const abort = new AbortController();
    const response = await fetch(`${url}/api/endless`, { signal: abort.signal });
    const reader = chunks(response);
    await readEvents(reader, 2);
    abort.abort();
    expect(await ended.promise).toBe('aborted'); // the test's timeout is the failure
  });

  it('an item that cannot be encoded cuts the stream and still ends the generator (its finally runs)', async () => {
    const ended = deferred();
    const gate = deferred();
    const url = await serveMock({
      handlers: [{ pattern: '/unencodable', handle: () => ndjson(async function* () {
        try {
          yield { n: 1 };
          await gate.promise; // the client has the head and line 1
          yield { n: 2n }; // JSON.stringify throws on a BigInt
          yield { n: 3 };
        } finally {
          ended.resolve();
        }
      }) }],
    });
    const response = await fetch(`${url}/api/unencodable`);
    expect(response.status).toBe(200);
    const reader = chunks(response);
    expect(await reader.next()).toBe('{"n":1}\n');
    gate.resolve();
    await expect(reader.next()).rejects.toThrow(); // truncated, never a complete-looking stream
    await ended.promise; // the test's timeout is the failure
  });

  it('works with the eventsource package: ids, types, retry, comments, Last-Event-ID resumption', async () => {
    const events: SseEvent[] = [
      { comment: 'hello' },
      { retry: 50 },
      { id: 'a', data: 'first' },
      { id: 'b', event: 'update', data: { n: 2 } },
      { id: 'c', data: 'line 1\nline 2' },
    ];
    const seenIds: Array<string | null> = [];
    const url = await serveMock({
      handlers: [{ pattern: '/feed', handle: (req) => {
        seenIds.push(req.headers.get('last-event-id'));
        return sse(events, { request: req });
      } }],
    });
    const es = new EventSource(`${url}/api/feed`);
    try {
      const got: string[] = [];
      const done = deferred();
      let reconnected = false;
      es.onmessage = (e) => {
        got.push(`message ${e.lastEventId} ${e.data}`);
        if (reconnected && got.length >= 4) done.resolve();
      };
      es.addEventListener('update', (e) => got.push(`update ${e.lastEventId} ${e.data}`));
      es.onerror = () => {
        // The stream ended: the client reconnects (retry: 50) with Last-Event-ID c → nothing more;
        // the second time round, nothing is left after c.
        reconnected = true;
        if (seenIds.length >= 2) done.resolve();
      };
      await done.promise;
      expect(got.slice(0, 3)).toEqual(['message a first', 'update b {"n":2}', 'message c line 1\nline 2']);
      expect(seenIds.slice(0, 2)).toEqual([null, 'c']);
    } finally {
      es.close();
    }
  });

  it('NDJSON and raw text stream chunk by chunk (gated)', async () => {
    const gate = deferred();
    const textGate = deferred();
    const url = await serveMock({
      handlers: [
        { pattern: '/rows', handle: () => ndjson(async function* () {
          yield { n: 1 };
          await gate.promise;
          yield { n: 2 };
        }) },
        { pattern: '/words', handle: () => textStream(async function* () {
          yield 'Hel';
          await textGate.promise;
          yield 'lo';
        }) },
      ],
    });
    const rows = await fetch(`${url}/api/rows`);
    expect(rows.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8');
    const r = chunks(rows);
    expect(await r.next()).toBe('{"n":1}\n');
    gate.resolve();
    expect(await r.next()).toBe('{"n":2}\n');
    expect(await r.next()).toBeUndefined();

    const words = await fetch(`${url}/api/words`);
    expect(words.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const w = chunks(words);
    expect(await w.next()).toBe('Hel');
    textGate.resolve();
    expect(await w.next()).toBe('lo');
  });

  it('the devtools journal shows a bounded preview of what went out, never holding the stream back', async () => {
    const gate = deferred();
    const url = await serveMock({
      handlers: [{ pattern: '/gated', handle: () => sse(async function* () {
        yield { id: 1, data: 'one' };
        await gate.promise;
        yield { id: 2, data: 'two' };
      }) }],
    });
    const entry = async () => {
      const { entries } = await (await fetch(`${url}/_mockyard/api/requests`)).json();
      return entries.find((e: { url: string }) => e.url === '/api/gated').response.body;
    };
    const reader = chunks(await fetch(`${url}/api/gated`));
    expect(await readEvents(reader, 1)).toEqual(['id: 1\ndata: one']);
    expect(await entry()).toEqual({ captured: true, size: 17, text: 'id: 1\ndata: one\n\n', truncated: true }); // still going
    gate.resolve();
    expect(await readEvents(reader, 1)).toEqual(['id: 2\ndata: two']);
    expect(await reader.next()).toBeUndefined();
    expect(await entry()).toEqual({ captured: true, size: 34, text: 'id: 1\ndata: one\n\nid: 2\ndata: two\n\n', truncated: false });
  });

  it('adds the CORS headers to a stream (mock.cors)', async () => {
    const url = await serveMock({ cors: true, handlers: [{ pattern: '/feed', handle: () => sse(['x']) }] });
    const response = await fetch(`${url}/api/feed`, { headers: { Origin: 'http://app.test' } });
    expect(response.headers.get('access-control-allow-origin')).toBeTruthy();
    expect(await response.text()).toBe('data: x\n\n');
  });

  it('a handler delay applies before the head; a stream outlives gatewayTimeout', async () => {
    const gate = deferred();
    const url = await serveMock({
      gatewayTimeout: 50,
      handlers: [{ pattern: '/slow', delay: 30, handle: () => sse(async function* () {
        yield 'a';
        await gate.promise;
        yield 'b';
      }) }],
    });
    const started = performance.now();
    const response = await fetch(`${url}/api/slow`);
    expect(performance.now() - started).toBeGreaterThanOrEqual(25); // the delay (lower bound only)
    const reader = chunks(response);
    expect(await readEvents(reader, 1)).toEqual(['data: a']);
    await new Promise((r) => setTimeout(r, 80)); // past gatewayTimeout: the stream is not cut
    gate.resolve();
    expect(await readEvents(reader, 1)).toEqual(['data: b']);
  });
});

describe('Node/Express-style streaming handlers (res.write) on the node host', () => {
  it('an event-stream type streams each res.write as it is made (gated), end() ends it; close tells the handler', async () => {
    const gate = deferred();
    const closed = deferred<string>();
    const url = await serveMock({
      handlers: [
        { pattern: '/express', handle: (_req, res) => {
          res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
          res.write('data: one\n\n');
          res.on('close', () => closed.resolve('closed'));
          void gate.promise.then(() => res.end('data: two\n\n'));
        } },
      ],
    });
    const response = await fetch(`${url}/api/express`);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(response.headers.get('content-length')).toBeNull();
    const reader = chunks(response);
    expect(await readEvents(reader, 1)).toEqual(['data: one']);
    gate.resolve();
    expect(await readEvents(reader, 1)).toEqual(['data: two']);
    expect(await reader.next()).toBeUndefined();
    expect(await closed.promise).toBe('closed');
  });

  it('every NDJSON type the recorder knows streams res.write too (application/jsonl, gated)', async () => {
    const gate = deferred();
    const url = await serveMock({
      handlers: [{ pattern: '/lines', handle: (_req, res) => {
        res.setHeader('Content-Type', 'application/jsonl');
        res.write('{"n":1}\n');
        void gate.promise.then(() => res.end('{"n":2}\n'));
      } }],
    });
    const response = await fetch(`${url}/api/lines`);
    expect(response.headers.get('content-length')).toBeNull();
    const reader = chunks(response);
    expect(await reader.next()).toBe('{"n":1}\n'); // a buffering answer never sends line 1 before the gate
    gate.resolve();
    expect(await reader.next()).toBe('{"n":2}\n');
  });

  it('an async handler looping over res.write streams too; the client leaving emits close and drops later writes', async () => {
    const left = deferred<boolean>();
    const url = await serveMock({
      handlers: [{ pattern: '/loop', handle: async (_req, res) => {
        res.flushHeaders();
        let gone = false;
        res.on('close', () => (gone = true));
        for (let n = 1; !gone; n++) {
          res.write(`${n}\n`);
          await new Promise((r) => setTimeout(r, 5));
        }
        left.resolve(res.write('after\n'));
      } }],
    });
    const abort = new AbortController();
    const reader = chunks(await fetch(`${url}/api/loop`, { signal: abort.signal }));
    let text = '';
    while (!text.includes('2\n')) text += (await reader.next()) ?? '';
    abort.abort();
    expect(await left.promise).toBe(false); // the write after the client left is dropped
  });

  it('res.write says false once the client is behind, and drain follows when it caught up (backpressure)', async () => {
    const seen = { falses: 0, drains: 0 };
    const KIB = 'x'.repeat(1023) + '\n';
    const url = await serveMock({
      handlers: [{ pattern: '/big', handle: (_req, res) => {
        res.setHeader('Content-Type', 'application/x-ndjson');
        res.flushHeaders();
        let n = 0;
        const pump = () => {
          while (n < 2048) {
            n++;
            if (!res.write(KIB)) {
              seen.falses++;
              res.once('drain', () => {
                seen.drains++;
                pump();
              });
              return;
            }
          }
          res.end();
        };
        pump();
      } }],
    });
    const text = await (await fetch(`${url}/api/big`)).text();
    expect(text.length).toBe(2048 * 1024); // 2 MiB, written only as fast as it was read
    expect(seen.falses).toBeGreaterThan(0);
    expect(seen.drains).toBe(seen.falses);
  });

  it('a close listener added after the end runs, and one that throws breaks nothing (no uncaught exception)', async () => {
    const heard = deferred();
    const url = await serveMock({
      handlers: [{ pattern: '/ended', handle: (_req, res) => {
        res.end('done');
        res.on('close', () => {
          throw new Error('a careless listener');
        });
        res.on('close', () => heard.resolve());
      } }],
    });
    expect(await (await fetch(`${url}/api/ended`)).text()).toBe('done');
    await heard.promise; // vitest fails the run on an uncaught exception
  });

  it('other types keep buffering until end() (Content-Length set)', async () => {
    const url = await serveMock({
      handlers: [{ pattern: '/plain', handle: (_req, res) => {
        res.setHeader('Content-Type', 'text/plain');
        res.write('a');
        setTimeout(() => res.end('b'), 5);
      } }],
    });
    const response = await fetch(`${url}/api/plain`);
    expect(response.headers.get('content-length')).toBe('2');
    expect(await response.text()).toBe('ab');
  });
});

describe('recorded stream files on the node host', () => {
  async function mocks(files: Record<string, string>): Promise<string> {
    const dir = join(await makeTempDir(), 'mocks');
    await mkdir(dir, { recursive: true });
    for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
    return dir;
  }

  const CHAT = [
    ': a recorded chat completion',
    'delay: 0',
    'data: {"choices":[{"delta":{"content":"Hel"}}]}',
    '',
    'delay: 40',
    'id: 2',
    'data: {"choices":[{"delta":{"content":"lo"}}]}',
    '',
    'delay: 40',
    'id: 3',
    'data: [DONE]',
    '',
  ].join('\n');

  it('replays a .sse file in order without its delay lines, at once with speed 0 (GET and POST)', async () => {
    const url = await serveMock({ fsDir: await mocks({ 'chat.sse': CHAT }), streams: { speed: 0 } });
    const get = await fetch(`${url}/api/chat`);
    expect(get.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(await get.text()).toBe(': a recorded chat completion\ndata: {"choices":[{"delta":{"content":"Hel"}}]}\n\nid: 2\ndata: {"choices":[{"delta":{"content":"lo"}}]}\n\nid: 3\ndata: [DONE]\n\n');
    const post = await fetch(`${url}/api/chat`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'x', stream: true }) });
    expect(post.status).toBe(200);
    expect(await post.text()).toContain('data: [DONE]');
  });

  it('keeps the recorded delays (a lower bound on the elapsed time), and a request asks for its own speed', async () => {
    const url = await serveMock({ fsDir: await mocks({ 'chat.sse': CHAT }) });
    const started = performance.now();
    const text = await (await fetch(`${url}/api/chat`)).text();
    expect(performance.now() - started).toBeGreaterThanOrEqual(75); // 40 + 40 ms recorded
    expect(text.indexOf('Hel')).toBeLessThan(text.indexOf('lo"'));
    expect(await (await fetch(`${url}/api/chat?__speed=0`)).text()).toBe(text);
    expect(await (await fetch(`${url}/api/chat`, { headers: { 'X-Mockyard-Speed': '0' } })).text()).toBe(text);
    const bad = await fetch(`${url}/api/chat?__speed=fast`);
    expect(bad.status).toBe(400);
    expect((await bad.json()).message).toMatch(/__speed must be a number/);
  });

  it('resumes after Last-Event-ID, answers HEAD with the head, and replays .ndjson with its // delay lines', async () => {
    const url = await serveMock({ fsDir: await mocks({ 'chat.sse': CHAT, 'rows.ndjson': '{"n":1}\n// delay 5\n{"n":2}\n// a comment\n{"n":3}\n' }), streams: { speed: 0 } });
    expect(await (await fetch(`${url}/api/chat`, { headers: { 'Last-Event-ID': '2' } })).text()).toBe('id: 3\ndata: [DONE]\n\n');
    const head = await fetch(`${url}/api/chat`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const rows = await fetch(`${url}/api/rows`);
    expect(rows.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8');
    expect(await rows.text()).toBe('{"n":1}\n{"n":2}\n{"n":3}\n');
    // The file by its full name is the same stream.
    expect(await (await fetch(`${url}/api/rows.ndjson`)).text()).toBe('{"n":1}\n{"n":2}\n{"n":3}\n');
  });

  it('replays to the eventsource package event by event', async () => {
    const url = await serveMock({ fsDir: await mocks({ 'chat.sse': CHAT }), streams: { speed: 0 } });
    const es = new EventSource(`${url}/api/chat`);
    try {
      const got: string[] = [];
      await new Promise<void>((resolve) => {
        es.onmessage = (e) => {
          got.push(e.data);
          if (e.data === '[DONE]') resolve();
        };
      });
      expect(got).toEqual(['{"choices":[{"delta":{"content":"Hel"}}]}', '{"choices":[{"delta":{"content":"lo"}}]}', '[DONE]']);
    } finally {
      es.close();
    }
  });
});
