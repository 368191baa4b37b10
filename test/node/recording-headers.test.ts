/**
 * A hand-written recording's headers through the node host: the framing headers the host
 * computes (Transfer-Encoding, Content-Encoding, Content-Length) and cookies are not replayed, as
 * for recorded ones (recordings/kept-headers.ts), so the answer stays a well-formed HTTP message; a
 * header name that cannot be sent is a 500 naming the recording's entry.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createMockApi } from '../../src/engine/create-mock-api.js';
import { memoryFs } from '../../src/vfs/memory.js';
import { closeServers, startServer } from '../helpers/server.js';

afterEach(closeServers);

const recording = {
  recorded: [
    { request: { method: 'GET' }, response: { status: 200, headers: { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked', 'Content-Encoding': 'gzip', 'Content-Length': '99', 'Set-Cookie': 's=1', 'X-Kept': 'yes' }, body: [1] } },
  ],
};
const broken = { recorded: [{ request: { method: 'GET' }, response: { status: 200, headers: { 'x bad': 'v' }, body: [2] } }] };

describe('hand-written recording headers (node host)', () => {
  it('framing and cookies are the host\'s: the answer reads whole; an unsendable name is a 500 naming the entry', async () => {
    const mock = createMockApi({ endpointPrefix: '/api', fs: memoryFs({ 'users@recorded.json': recording, 'bad@recorded.json': broken }), logLevel: 'silent' });
    const server = await startServer({ mock });
    const ok = await fetch(`${server.url}/api/users`);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual([1]);
    expect(ok.headers.get('x-kept')).toBe('yes');
    expect(ok.headers.get('set-cookie')).toBeNull();
    expect(ok.headers.get('content-encoding')).toBeNull();
    expect(ok.headers.get('content-length')).toBe('3');
    const bad = await fetch(`${server.url}/api/bad`);
    expect(bad.status).toBe(500);
    expect(((await bad.json()) as { message: string }).message).toBe('Invalid recording bad@recorded.json: recorded[0].response.headers has "x bad", which is not a header name');
    await mock.close();
  });

  it('a value a header cannot carry (past U+00FF) is an invalid recording, and refuses a HAR at start-up; headers not replayed are not judged', async () => {
    const fs = memoryFs({ 'name@recorded.json': { recorded: [{ request: { method: 'GET' }, response: { status: 200, headers: { 'x-name': '日本' }, text: 'hi' } }] } });
    const mock = createMockApi({ endpointPrefix: '/api', fs, logLevel: 'silent' });
    const server = await startServer({ mock });
    const r = await fetch(`${server.url}/api/name`);
    expect(r.status).toBe(500);
    expect(((await r.json()) as { message: string }).message).toMatch(/^Invalid recording name@recorded\.json: recorded\[0\]\.response\.headers\.x-name must be a string a header can carry/);
    await mock.close();

    const har = (headers: Array<{ name: string; value: string }>) => ({ log: { entries: [{ request: { method: 'GET', url: 'https://h/api/h' }, response: { status: 200, headers, content: { text: 'hi' } } }] } });
    expect(() => createMockApi({ endpointPrefix: '/api', fs: memoryFs(), logLevel: 'silent', har: har([{ name: 'X-Name', value: 'é日' }]) })).toThrow(/entries\[0\]\.response\.headers \(x-name\) has a value that cannot be sent/);
    const ok = createMockApi({ endpointPrefix: '/api', fs: memoryFs(), logLevel: 'silent', har: har([{ name: 'Set-Cookie', value: 'a=1\nb=2' }, { name: 'X-Name', value: 'é' }]) });
    const served = await startServer({ mock: ok });
    const h = await fetch(`${served.url}/api/h`);
    expect([h.status, h.headers.get('set-cookie'), await h.text()]).toEqual([200, null, 'hi']);
    await ok.close();
  });
});
