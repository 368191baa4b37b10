import { describe, expect, it } from 'vitest';
import { KeyedQueue } from '../../src/core/keyed-queue.js';
import { OptionsError, check } from '../../src/core/options.js';
import { bufferedBody, kHasBody, kReadBody, hasBody, keepBody, keepJson, keptJson, readBody } from '../../src/core/body.js';
import { HttpError } from '../../src/core/errors.js';
import { createLogger } from '../../src/core/logger.js';

describe('KeyedQueue', () => {
  it('serialises tasks per key and runs keys in parallel', async () => {
    const q = new KeyedQueue();
    const log: string[] = [];
    const task = (key: string, n: number, ms: number) =>
      q.run(key, async () => {
        log.push(`start ${key}${n}`);
        await new Promise((r) => setTimeout(r, ms));
        log.push(`end ${key}${n}`);
        return n;
      });
    const results = await Promise.all([task('a', 1, 20), task('a', 2, 1), task('b', 1, 5)]);
    expect(results).toEqual([1, 2, 1]);
    expect(log.indexOf('end a1')).toBeLessThan(log.indexOf('start a2'));
    expect(log.indexOf('start b1')).toBeLessThan(log.indexOf('end a1'));
    await new Promise((r) => setTimeout(r, 0));
    expect(q.size).toBe(0);
  });

  it('keeps going after a failed task', async () => {
    const q = new KeyedQueue();
    await expect(q.run('k', () => Promise.reject(new Error('x')))).rejects.toThrow('x');
    await expect(q.run('k', () => 7)).resolves.toBe(7);
  });
});

describe('option checks', () => {
  it('name the option and the value', () => {
    expect(() => check.number('fast', 'mock.delay', 0, { min: 0 })).toThrow(OptionsError);
    expect(() => check.number('fast', 'mock.delay', 0, { min: 0 })).toThrow('option "mock.delay" must be a number >= 0 (got "fast")');
    expect(() => check.oneOf('maybe', 'mock.logLevel', ['debug', 'info'], 'info')).toThrow(/"mock.logLevel" must be one of "debug", "info"/);
    expect(() => check.knownKeys({ endpointPrefx: '/api' }, 'mock', ['endpointPrefix'])).toThrow(/"mock.endpointPrefx" is not a known option/);
    expect(() => check.knownKeys({ endpointPrefx: '/api' }, 'mock', ['endpointPrefix'])).toThrow('option "mock.endpointPrefx" is not a known option (did you mean "endpointPrefix"?) (known: endpointPrefix)');
    let several: unknown;
    try {
      check.knownKeys({ fsdir: 'm', delay: 1, zzz: 1 }, 'mock', ['fsDir', 'delay']);
    } catch (err) {
      several = err;
    }
    expect((several as OptionsError).options).toEqual(['mock.fsdir', 'mock.zzz']);
    expect((several as OptionsError).message).toBe('mockyard: options "mock.fsdir", "mock.zzz" are not known options (did you mean "fsDir" for "fsdir"?) (known: fsDir, delay)');
    expect(check.number(undefined, 'x', 5)).toBe(5);
    expect(check.boolean(undefined, 'x', true)).toBe(true);
  });
});

describe('readBody', () => {
  it('reads a platform request body within the limit', async () => {
    const r = new Request('http://x/', { method: 'POST', body: 'hello' });
    expect(new TextDecoder().decode(await readBody(r, 10))).toBe('hello');
  });

  it('answers 413 when the stream crosses the limit', async () => {
    const big = new Uint8Array(1000);
    const stream = new ReadableStream({
      pull(c) {
        c.enqueue(big);
      },
    });
    const r = new Request('http://x/', { method: 'POST', body: stream, duplex: 'half' } as RequestInit);
    await expect(readBody(r, 5000)).rejects.toMatchObject({ status: 413 });
  });

  it('answers 413 from a declared Content-Length before reading', async () => {
    const r = new Request('http://x/', { method: 'POST', body: 'x'.repeat(100), headers: { 'content-length': '100' } });
    await expect(readBody(r, 10)).rejects.toBeInstanceOf(HttpError);
  });

  it('uses the host fast paths when present', async () => {
    const r = new Request('http://x/') as Request & Record<symbol, unknown>;
    r[kHasBody] = true;
    r[kReadBody] = async (limit: number) => new Uint8Array([limit]);
    expect(hasBody(r)).toBe(true);
    expect(Array.from(await readBody(r, 7))).toEqual([7]);
    expect(hasBody(new Request('http://x/'))).toBe(false);
  });
});

describe('keepBody / keepJson', () => {
  it('a body read once is kept for the layers after, and its parsed JSON only for those same bytes', async () => {
    const request = new Request('http://x/a', { method: 'POST', body: '{"a":1}' });
    const bytes = await readBody(request, 100);
    keepBody(request, bytes);
    expect(bufferedBody(request)).toBe(bytes);
    expect(await readBody(request, 100)).toBe(bytes); // not read from the (used) stream again
    expect(keptJson(request, bytes)).toBeUndefined();
    const value = { a: 1 };
    keepJson(request, bytes, value);
    expect(keptJson(request, bytes)?.value).toBe(value);
    expect(keptJson(request, new Uint8Array(bytes))).toBeUndefined(); // other bytes: not theirs
  });
});

describe('logger', () => {
  it('filters by level and writes to the sink', () => {
    const lines: string[] = [];
    const sink = { info: (m: string) => lines.push(`i ${m}`), warn: (m: string) => lines.push(`w ${m}`), error: (m: string) => lines.push(`e ${m}`) };
    const log = createLogger('warn', sink, '[t]');
    log.info('no');
    log.debug('no');
    log.warn('yes');
    log.error('also');
    expect(lines).toEqual(['w [t] yes', 'e [t] also']);
    expect(createLogger('silent', sink).enabled('error')).toBe(false);
  });
});
