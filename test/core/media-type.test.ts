import { describe, expect, it } from 'vitest';
import { contentTypeFor, extensionFor, isJsonMediaType, parseMediaType } from '../../src/core/media-type.js';

describe('media types', () => {
  it('maps common extensions, text with charset', () => {
    expect(contentTypeFor('users.json')).toBe('application/json; charset=utf-8');
    expect(contentTypeFor('a/b/logo.png')).toBe('image/png');
    expect(contentTypeFor('feed.xml')).toMatch(/xml; charset=utf-8$/);
    expect(contentTypeFor('notes.txt')).toBe('text/plain; charset=utf-8');
    expect(contentTypeFor('data.csv')).toBe('text/csv; charset=utf-8');
    expect(contentTypeFor('unknown.zzz')).toBe('application/octet-stream');
    expect(contentTypeFor('no-extension')).toBe('application/octet-stream');
  });

  it('finds extensions for media types', () => {
    expect(extensionFor('image/png')).toBe('png');
    expect(extensionFor('image/jpeg')).toBe('jpg');
    expect(extensionFor('application/json; charset=utf-8')).toBe('json');
    expect(extensionFor('application/x-nothing')).toBeUndefined();
  });

  it('parses Content-Type with parameters', () => {
    expect(parseMediaType('Application/JSON; Charset="UTF-8"')).toEqual({ type: 'application/json', params: { charset: 'UTF-8' } });
    expect(parseMediaType(null)).toEqual({ type: '', params: {} });
    expect(parseMediaType('multipart/form-data; boundary=abc').params.boundary).toBe('abc');
    expect(isJsonMediaType('application/merge-patch+json')).toBe(true);
    expect(isJsonMediaType('text/json')).toBe(false);
  });
});
