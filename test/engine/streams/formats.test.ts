/**
 * The stream formats: SSE events as wire text (msw's message shape plus comments), the recorded
 * `.sse` / `.ndjson` files (parse ↔ format), resumption after Last-Event-ID, and the `streams`
 * option's validation.
 */
import { describe, expect, it } from 'vitest';
import { OptionsError } from '../../../src/core/options.js';
import { contentTypeFor } from '../../../src/core/media-type.js';
import { createMockApi } from '../../../src/engine/create-mock-api.js';
import { formatNdjsonFile, formatSseFile, parseNdjsonFile, parseSseFile } from '../../../src/engine/recordings/recorded-format.js';
import { streamFilePath, streamFormatOf } from '../../../src/engine/recordings/stream-record.js';
import { iterableBody } from '../../../src/engine/streams/iterable-body.js';
import { resumeAfter, sse } from '../../../src/engine/streams/responses.js';
import { formatSseEvent } from '../../../src/engine/streams/sse-format.js';
import { memoryFs } from '../../../src/vfs/memory.js';

describe('SSE events', () => {
  it('writes each field on its own line, data as text or JSON, multi-line data as several data lines', () => {
    expect(formatSseEvent('hi')).toBe('data: hi\n\n');
    expect(formatSseEvent({ id: 7, event: 'tick', data: { n: 1 } })).toBe('id: 7\nevent: tick\ndata: {"n":1}\n\n');
    expect(formatSseEvent({ data: 'a\nb\r\nc' })).toBe('data: a\ndata: b\ndata: c\n\n');
    expect(formatSseEvent({ comment: 'keep-alive' })).toBe(': keep-alive\n\n');
    expect(formatSseEvent({ retry: 3000 })).toBe('retry: 3000\n\n');
    expect(formatSseEvent({ data: '' })).toBe('data: \n\n');
  });

  it('refuses what would change the stream: line breaks in id or event, NUL in id, a bad retry', () => {
    expect(() => formatSseEvent({ id: 'a\nb' })).toThrow(/id must not contain a line break/);
    expect(() => formatSseEvent({ event: 'x\ry' })).toThrow(/event must not contain a line break/);
    expect(() => formatSseEvent({ id: 'a\0' })).toThrow(/NUL/);
    expect(() => formatSseEvent({ retry: -1 })).toThrow(/retry/);
  });

  it('an array resumes after the event with Last-Event-ID (all of it for an unknown id)', async () => {
    const events = [{ id: 1, data: 'a' }, { id: 2, data: 'b' }, { id: 3, data: 'c' }];
    expect(resumeAfter(events, '2')).toEqual([{ id: 3, data: 'c' }]);
    expect(resumeAfter(events, 'nope')).toEqual(events);
    const request = new Request('http://x/', { headers: { 'Last-Event-ID': '1' } });
    expect(await sse(events, { request }).text()).toBe('id: 2\ndata: b\n\nid: 3\ndata: c\n\n');
  });

  it('waits each item\'s delay divided by speed, capped at what a timer can hold', async () => {
    const waits: number[] = [];
    const body = iterableBody([{ d: 100 }, { d: 1e12 }, { d: 0 }], {
      encode: (i) => `${i.d}\n`,
      delayOf: (i) => i.d,
      speed: 2,
      sleep: async (ms) => {
        waits.push(ms);
      },
    });
    expect(await new Response(body).text()).toBe('100\n1000000000000\n0\n');
    expect(waits).toEqual([50, 2 ** 31 - 1]); // 5e11 would overflow the timer and fire at once
  });

  it('a bad speed is refused', () => {
    expect(() => sse([], { speed: -1 })).toThrow(/speed must be a number ≥ 0/);
  });
});

describe('recorded stream files', () => {
  it('.sse: delay lines are the waits, every other line is sent as written', () => {
    const text = ': note\ndelay: 5\nid: 1\ndata: a\n\ndelay: 10\nevent: x\ndata: b\ndata: c\n\ndelay: 3\n\n';
    expect(parseSseFile(text)).toEqual([
      { delay: 5, text: ': note\nid: 1\ndata: a\n\n', id: '1' },
      { delay: 10, text: 'event: x\ndata: b\ndata: c\n\n' },
      { delay: 3, text: '' },
    ]);
    expect(parseSseFile('\uFEFFdata: crlf\r\n\r\n')).toEqual([{ delay: 0, text: 'data: crlf\n\n' }]);
    const parts = parseSseFile(text);
    expect(parseSseFile(formatSseFile(parts))).toEqual(parts);
  });

  it('.ndjson: each line a chunk, // delay lines are waits, other // lines comments', () => {
    const text = '{"n":1}\n// delay 20\n// a comment\n{"n":2}\n\n// delay: 5ms\n';
    expect(parseNdjsonFile(text)).toEqual([{ delay: 0, text: '{"n":1}\n' }, { delay: 20, text: '{"n":2}\n' }, { delay: 5, text: '' }]);
    const parts = parseNdjsonFile(text);
    expect(parseNdjsonFile(formatNdjsonFile(parts))).toEqual(parts);
  });

  it('names: the media types and the file a recorded stream is written to', () => {
    expect(streamFormatOf('text/event-stream; charset=utf-8')).toBe('sse');
    expect(streamFormatOf('application/x-ndjson')).toBe('ndjson');
    expect(streamFormatOf('application/json')).toBeUndefined();
    expect(streamFilePath('/v1/chat/completions', 'sse')).toBe('v1/chat/completions.sse');
    expect(streamFilePath('/feed.ndjson', 'ndjson')).toBe('feed.ndjson');
    expect(streamFilePath('/', 'sse')).toBeNull();
    expect(() => streamFilePath('/a/%2e%2e/%2e%2e/etc', 'sse')).toThrow();
    expect(contentTypeFor('chat.sse')).toBe('text/event-stream; charset=utf-8');
    expect(contentTypeFor('rows.ndjson')).toBe('application/x-ndjson; charset=utf-8');
  });
});

describe('the streams option', () => {
  it('takes { speed ≥ 0 } and names what is wrong', () => {
    const make = (streams: unknown) => createMockApi({ endpointPrefix: '/api', fs: memoryFs(), logLevel: 'silent', streams } as never);
    expect(() => make({ speed: 0 })).not.toThrow();
    expect(() => make({ speed: -1 })).toThrow(OptionsError);
    expect(() => make({ speed: -1 })).toThrow(/streams\.speed/);
    expect(() => make({ pace: 1 })).toThrow(/streams\.pace/);
    expect(() => make(true)).toThrow(/streams/);
  });

  it('replays through the engine at once with speed 0 (memoryFs)', async () => {
    const api = createMockApi({ endpointPrefix: '/api', fs: memoryFs({ 'chat.sse': 'delay: 5000\ndata: late\n\n' }), logLevel: 'silent', streams: { speed: 0 } });
    const response = (await api.handle(new Request('http://x/api/chat')))!;
    expect(await response.text()).toBe('data: late\n\n');
    await api.close();
  });

  it('closing the engine ends a replay that is still waiting', async () => {
    const api = createMockApi({ endpointPrefix: '/api', fs: memoryFs({ 'chat.sse': 'delay: 0\ndata: now\n\ndelay: 600000\ndata: never\n\n' }), logLevel: 'silent' });
    const response = (await api.handle(new Request('http://x/api/chat')))!;
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    while (!text.includes('\n\n')) text += decoder.decode((await reader.read()).value);
    expect(text).toBe('data: now\n\n'); // the next event waits 10 minutes
    await api.close();
    expect(await reader.read()).toEqual({ done: true, value: undefined });
  });

  it('closing the engine ends the streams its handlers answered with (sse() and res.write)', async () => {
    const api = createMockApi({
      endpointPrefix: '/api',
      fs: memoryFs(),
      logLevel: 'silent',
      handlers: [
        { pattern: '/sse', handle: () => sse(async function* ({ signal }) {
          yield 'a';
          await new Promise((resolve) => signal.addEventListener('abort', resolve)); // waits until stopped
        }) },
        { pattern: '/written', handle: (_req, res) => {
          res.setHeader('Content-Type', 'text/event-stream');
          res.write('data: w\n\n'); // never ends by itself
        } },
      ],
    });
    const readers = await Promise.all(['/api/sse', '/api/written'].map(async (path) => (await api.handle(new Request(`http://x${path}`)))!.body!.getReader()));
    const decoder = new TextDecoder();
    const firsts: string[] = [];
    for (const reader of readers) {
      let text = '';
      while (!text.includes('\n\n')) text += decoder.decode((await reader.read()).value);
      firsts.push(text);
    }
    expect(firsts).toEqual(['data: a\n\n', 'data: w\n\n']);
    await api.close();
    for (const reader of readers) expect(await reader.read()).toEqual({ done: true, value: undefined });
  });
});
