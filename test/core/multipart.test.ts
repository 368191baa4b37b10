/**
 * core/multipart.ts on bytes as clients send them: each part's own type kept, file vs field by
 * the `filename` parameter, Content-Disposition read as browsers write it (a backslash is a
 * character, as `Request.formData()` reads it), `filename*` preferred, a preamble skipped, a
 * body that does not parse a 400. The hosts' answers are tested in test/node/multipart-json-part.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { HttpError } from '../../src/core/errors.js';
import { multipartValues, readMultipart } from '../../src/core/multipart.js';

const B = 'xyz';
const TYPE = `multipart/form-data; boundary=${B}`;
const enc = (s: string) => new TextEncoder().encode(s);
const part = (disposition: string, body: string, type?: string) => `--${B}\r\nContent-Disposition: form-data; ${disposition}\r\n${type ? `Content-Type: ${type}\r\n` : ''}\r\n${body}\r\n`;
const read = (s: string) => readMultipart(enc(s), TYPE);
const text = (b: Uint8Array) => new TextDecoder().decode(b);

describe('readMultipart', () => {
  it('keeps a text part\'s JSON type; a filename makes a file (media type without parameters)', () => {
    const r = read(part('name="a"', '{"x":1}', 'application/json; charset=utf-8') + part('name="b"', 'plain') + part('name="f"; filename="hé.txt"', 'hello', 'Text/Plain; charset=x') + part('name="e"; filename=""', '') + `--${B}--\r\n`);
    expect(r.fields).toEqual([['a', '{"x":1}'], ['b', 'plain']]);
    expect(r.jsonFields).toEqual([0]);
    expect(r.files.map((f) => [f.fieldName, f.filename, f.contentType, text(f.bytes)])).toEqual([['f', 'hé.txt', 'text/plain', 'hello'], ['e', '', 'application/octet-stream', '']]);
    expect(multipartValues(r, 64)).toEqual([['a', { x: 1 }], ['b', 'plain']]);
  });

  it('reads Content-Disposition as Request.formData() does; filename* wins', async () => {
    const body = part('name="f"; filename="a\\..\\.."', 'x') + part('name="a;b"; filename="c;d.txt"', 'y') + part('name="g"; filename="x.txt"; filename*=UTF-8\'\'%E2%82%AC.txt', 'z') + `--${B}--`;
    expect(read(body).files.map((f) => [f.fieldName, f.filename])).toEqual([['f', 'a\\..\\..'], ['a;b', 'c;d.txt'], ['g', '€.txt']]);
    const platform = await new Response(enc(part('name="f"; filename="a\\..\\.."', 'x') + `--${B}--`), { headers: { 'content-type': TYPE } }).formData();
    expect((platform.get('f') as File).name).toBe('a\\..\\..');
  });

  it('skips a preamble and a part without a name', () => {
    expect(read(`hello\r\n${part('name="a"', 'x')}${part('', 'y')}--${B}--`).fields).toEqual([['a', 'x']]);
  });

  it.each([
    ['an empty body', ''],
    ['an unterminated body', part('name="a"', 'x').slice(0, -2)],
    ['no boundary line', 'just text'],
  ])('%s is a 400', (_label, body) => {
    expect(() => read(body)).toThrow(HttpError);
    try { read(body); } catch (err) { expect((err as HttpError).status).toBe(400); }
  });

  it('a Content-Type without boundary is a 400', () => {
    expect(() => readMultipart(enc(part('name="a"', 'x')), 'multipart/form-data')).toThrow(/no boundary/);
  });

  it('a JSON part that is not JSON is a 400 naming the field', () => {
    expect(() => multipartValues(read(part('name="meta"', '{oops', 'application/json') + `--${B}--`), 64)).toThrow(/multipart field "meta"/);
  });
});
