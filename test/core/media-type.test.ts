import { describe, expect, it } from 'vitest';
import { contentTypeFor, extensionFor, isJsonMediaType, isTextMediaType, parseMediaType, streamedFormatOf } from '../../src/core/media-type.js';
import { harContent } from '../../src/engine/recordings/har.js';

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

  it('one rule for text types (served with a charset, kept as text by the journal, HAR logs and recordings) and streamed types', () => {
    for (const t of ['text/plain', 'application/json', 'application/vnd.api+json', 'application/x-ndjson', 'application/graphql', 'application/yaml', 'image/svg+xml', 'application/xml']) expect(isTextMediaType(t), t).toBe(true);
    for (const t of ['image/png', 'application/octet-stream', 'application/pdf', '']) expect(isTextMediaType(t), t).toBe(false);
    expect(harContent(new TextEncoder().encode('<svg/>'), 6, 'image/svg+xml')).toEqual({ size: 6, mimeType: 'image/svg+xml', text: '<svg/>' });
    expect(harContent(new Uint8Array([0xff]), 1, 'image/png').encoding).toBe('base64');
    expect(streamedFormatOf('text/event-stream')).toBe('sse');
    expect(streamedFormatOf('application/jsonl')).toBe('ndjson');
    expect(streamedFormatOf('application/json')).toBeUndefined();
  });
});
