/**
 * A hand-written recording's headers through the node host: the framing headers the host
 * computes (Transfer-Encoding, Content-Encoding, Content-Length) and cookies are not replayed, as
 * for recorded ones (replay/kept-headers.ts), so the answer stays a well-formed HTTP message; a
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
});
