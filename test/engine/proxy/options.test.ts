/**
 * The `proxy` option, resolved next to the proxy layer (src/engine/proxy/options.ts): what the
 * layer and the recorder get, and the start-up errors that name the option.
 */
import { describe, expect, it } from 'vitest';
import { OptionsError } from '../../../src/core/options.js';
import { DEFAULT_CAPTURE_LIMIT, DEFAULT_PROXY_TIMEOUT, resolveProxy } from '../../../src/engine/proxy/options.js';

describe('resolveProxy', () => {
  it('splits the target into origin and base path, with defaults, and no proxy without the option', () => {
    expect(resolveProxy(undefined, 'mock.proxy')).toBeNull();
    expect(resolveProxy({ target: 'https://api.example.com/v2/' }, 'mock.proxy')).toMatchObject({
      origin: 'https://api.example.com',
      basePath: '/v2',
      headers: [],
      timeout: DEFAULT_PROXY_TIMEOUT,
      record: null,
    });
  });

  it('record: redacts the proxy headers and the always-secret ones, keeps files served by default', () => {
    const p = resolveProxy({ target: 'http://127.0.0.1:9', headers: { 'X-Api-Key': 'k' }, record: { redact: ['X-Session'] } }, 'mock.proxy')!;
    expect(p.headers).toEqual([['x-api-key', 'k']]);
    expect(p.record).toMatchObject({ overwrite: false, serveFiles: true, captureLimit: DEFAULT_CAPTURE_LIMIT });
    expect([...p.record!.redact]).toEqual(expect.arrayContaining(['x-api-key', 'x-session', 'authorization', 'cookie']));
  });

  it('names the option in what it refuses', () => {
    const refused = (value: unknown) => {
      try {
        resolveProxy(value, 'mock.proxy');
      } catch (err) {
        return err instanceof OptionsError ? `${err.option}` : `not an OptionsError: ${String(err)}`;
      }
      return 'accepted';
    };
    expect(refused('http://x')).toBe('mock.proxy');
    expect(refused({})).toBe('mock.proxy.target');
    expect(refused({ target: 'ftp://x' })).toBe('mock.proxy.target');
    expect(refused({ target: 'http://u:p@x' })).toBe('mock.proxy.target');
    expect(refused({ target: 'http://x', headers: { 'x-a': 'line\nbreak' } })).toBe('mock.proxy.headers.x-a');
    expect(refused({ target: 'http://x', record: { redact: ['bad name'] } })).toBe('mock.proxy.record.redact[0]');
    expect(refused({ target: 'http://x', timeout: 0 })).toBe('mock.proxy.timeout');
  });
});
