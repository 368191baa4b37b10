/**
 * A multipart part sent with `Content-Type: application/json` and no filename is a JSON value on
 * the node host (busboy sees each part's type): stored as JSON by file-mode PUT/POST, parsed in a
 * handler's `req.body`; a part that is not JSON is a 400 naming it. Real server on 127.0.0.1, real
 * fetch with a hand-built body: undici's FormData sends a Blob as a file (`filename="blob"`).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createMockApi, type MockApi } from '../../src/engine/create-mock-api.js';
import { memoryFs } from '../../src/vfs/memory.js';
import { closeServers, startServer } from '../helpers/server.js';

const apis: MockApi[] = [];
afterEach(async () => {
  await closeServers();
  await Promise.all(apis.splice(0).map((a) => a.close()));
});

const BOUNDARY = 'mockyard-json-part';
/** A multipart body: each part `[name, value, contentType?]`, never a filename. */
function multipart(parts: Array<[string, string, string?]>): RequestInit {
  const body = parts.map(([name, value, type]) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n${type ? `Content-Type: ${type}\r\n` : ''}\r\n${value}\r\n`).join('') + `--${BOUNDARY}--\r\n`;
  return { body, headers: { 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}` } };
}

async function server() {
  const api = createMockApi({
    endpointPrefix: '/api',
    fs: memoryFs({ 'todos.json': '[]', 'profile.json': '{}' }),
    handlers: [{ pattern: '/echo', method: 'POST', handle: (req, res) => res.json({ body: req.body, files: req.files?.length ?? 0 }) }],
    logLevel: 'silent',
  });
  apis.push(api);
  return (await startServer({ engines: [api] })).url;
}

describe('multipart part with Content-Type: application/json (node host, busboy)', () => {
  it('PUT stores it as JSON beside the text fields', async () => {
    const url = await server();
    const put = await fetch(`${url}/api/profile`, { method: 'PUT', ...multipart([['name', 'ann'], ['meta', '{"tags":["a","b"],"n":1}', 'application/json'], ['ld', '{"x":true}', 'application/ld+json; charset=utf-8']]) });
    expect(put.status).toBeLessThan(300);
    expect(await (await fetch(`${url}/api/profile`)).json()).toEqual({ name: 'ann', meta: { tags: ['a', 'b'], n: 1 }, ld: { x: true } });
  });

  it('POST creates a file holding the JSON value', async () => {
    const url = await server();
    const post = await fetch(`${url}/api/settings`, { method: 'POST', ...multipart([['title', 't'], ['meta', '[1,2]', 'application/json']]) });
    expect(post.status).toBe(201);
    expect(await (await fetch(`${url}/api/settings`)).json()).toEqual({ title: 't', meta: [1, 2] });
  });

  it("a handler's req.body gets the value; a text part stays text", async () => {
    const url = await server();
    const r = await fetch(`${url}/api/echo`, { method: 'POST', ...multipart([['meta', '{"a":1}', 'application/json'], ['plain', '{"a":1}'], ['meta', '2', 'application/json']]) });
    expect(await r.json()).toEqual({ body: { meta: [{ a: 1 }, 2], plain: '{"a":1}' }, files: 0 });
  });

  it('a JSON part that is not JSON is a 400 naming the field', async () => {
    const url = await server();
    const r = await fetch(`${url}/api/profile`, { method: 'PUT', ...multipart([['meta', '{oops', 'application/json']]) });
    expect(r.status).toBe(400);
    expect(((await r.json()) as { message: string }).message).toContain('multipart field "meta"');
    expect(await (await fetch(`${url}/api/profile`)).json()).toEqual({});
  });
});
