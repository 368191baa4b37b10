/**
 * `proxy.record` of an upstream stream: an OpenAI-style chat completion (`text/event-stream`,
 * `data: {"choices":[{"delta":…}]}` chunks then `data: [DONE]`, a POST) from a real local
 * upstream goes to the client live (gated: the upstream sends chunk 2 only after the client
 * read chunk 1) and is written as a `.sse` file with each event's delay, which then replays.
 */
import { mkdir, readFile, readdir } from 'node:fs/promises';
import { createGzip } from 'node:zlib';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createNodeMockApi as createMockApi } from '../../src/node/engines.js';
import { parseSseFile } from '../../src/engine/recordings/recorded-format.js';
import { closeServers, startServer } from '../helpers/server.js';
import { makeTempDir, removeTempDirs } from '../helpers/temp-dir.js';
import { closeUpstreams, startUpstream } from '../helpers/upstream.js';

afterEach(async () => {
  await closeServers();
  await closeUpstreams();
  await removeTempDirs();
});

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

const WORDS = ['Hel', 'lo', ' world'];
const chunk = (content: string) => `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content } }] })}\n\n`;

describe('recording an upstream event stream', () => {
  it('forwards an OpenAI-style stream live while recording it, then replays the .sse file', async () => {
    const acked = deferred();
    const upstream = await startUpstream(async (req, res, body) => {
      await body();
      if (req.method !== 'POST' || req.url !== '/api/v1/chat/completions') {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
      res.write(chunk(WORDS[0]!));
      await acked.promise; // the client has chunk 1: a proxy that buffered the stream never gets here
      await new Promise((r) => setTimeout(r, 30));
      res.write(chunk(WORDS[1]!));
      await new Promise((r) => setTimeout(r, 30));
      // Two events in one write, then [DONE] split across writes: the recording is by event.
      res.write(chunk(WORDS[2]!) + 'data: [DO');
      res.end('NE]\n\n');
    });
    const dir = join(await makeTempDir(), 'mocks');
    await mkdir(dir, { recursive: true });
    const engine = createMockApi({ endpointPrefix: '/api', fsDir: dir, logLevel: 'silent', proxy: { target: upstream.url, record: true } });
    const server = await startServer({ mock: engine });

    const response = await fetch(`${server.url}/api/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-test', stream: true, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    while (!text.includes('\n\n')) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    expect(text).toBe(chunk('Hel'));
    acked.resolve();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    expect(text).toBe(WORDS.map(chunk).join('') + 'data: [DONE]\n\n');
    await engine.recorder!.settled();

    expect(await readdir(join(dir, 'v1', 'chat'))).toEqual(['completions.sse']);
    const file = await readFile(join(dir, 'v1', 'chat', 'completions.sse'), 'utf8');
    const parts = parseSseFile(file);
    expect(parts.map((p) => p.text)).toEqual([...WORDS.map(chunk), 'data: [DONE]\n\n']);
    expect(parts[1]!.delay).toBeGreaterThanOrEqual(25); // the wait the upstream made (lower bound)
    expect(file.startsWith('delay: ')).toBe(true);
    const har = engine.recorder!.har();
    expect(har.log.entries).toHaveLength(1);
    expect(har.log.entries[0]!.response.content.text).toBe(text);

    // Replay without the upstream: the same events, at once with speed 0.
    await upstream.close();
    const replay = createMockApi({ endpointPrefix: '/api', fsDir: dir, logLevel: 'silent', streams: { speed: 0 } });
    const replayServer = await startServer({ mock: replay });
    const again = await fetch(`${replayServer.url}/api/v1/chat/completions`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
    expect(again.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(await again.text()).toBe(text);
  });

  it('does not write a stream the client left before its end', async () => {
    const upstream = await startUpstream(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: 1\n\n');
      // never ends: the client leaves
    });
    const dir = join(await makeTempDir(), 'mocks');
    await mkdir(dir, { recursive: true });
    const engine = createMockApi({ endpointPrefix: '/api', fsDir: dir, logLevel: 'silent', proxy: { target: upstream.url, record: true } });
    const server = await startServer({ mock: engine });
    const abort = new AbortController();
    const response = await fetch(`${server.url}/api/ticks`, { signal: abort.signal });
    const reader = response.body!.getReader();
    let first = '';
    while (!first.includes('\n\n')) first += new TextDecoder().decode((await reader.read()).value ?? new Uint8Array(), { stream: true });
    abort.abort();
    await engine.recorder!.settled();
    expect(await readdir(dir)).toEqual([]);
    expect(engine.recorder!.har().log.entries).toHaveLength(1);
  });
});

describe('proxying an upstream event stream (no record)', () => {
  it('forwards it live, gzip from the target included (decoded event by event, never buffered)', async () => {
    for (const compressed of [false, true]) {
      const acked = deferred();
      const upstream = await startUpstream(async (_req, res, body) => {
        await body();
        res.writeHead(200, { 'content-type': 'text/event-stream', ...(compressed ? { 'content-encoding': 'gzip' } : {}) });
        const out = compressed ? createGzip() : undefined;
        out?.pipe(res);
        const send = (text: string) => (out ? (out.write(text), out.flush()) : res.write(text));
        send(chunk('Hel'));
        await acked.promise; // the client has event 1: a buffering proxy never gets here
        send('data: [DONE]\n\n');
        if (out) out.end();
        else res.end();
      });
      const engine = createMockApi({ endpointPrefix: '/api', fsDir: null, logLevel: 'silent', proxy: { target: upstream.url } });
      const server = await startServer({ mock: engine });
      const response = await fetch(`${server.url}/api/v1/chat/completions`, { method: 'POST', body: '{}' });
      expect(response.headers.get('content-encoding')).toBeNull();
      const reader = response.body!.getReader();
      const decoder = new TextDecoder();
      let text = '';
      while (!text.includes('\n\n')) text += decoder.decode((await reader.read()).value, { stream: true });
      expect(text).toBe(chunk('Hel'));
      acked.resolve();
      for (let r = await reader.read(); !r.done; r = await reader.read()) text += decoder.decode(r.value, { stream: true });
      expect(text).toBe(`${chunk('Hel')}data: [DONE]\n\n`);
    }
  });
});
