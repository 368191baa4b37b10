/**
 * The node host's StreamResponse (the proxy's answers on Node): a Response for every caller, its
 * Node stream piped by the host as long as nobody read the body; CORS (`withHeaders`) keeps it so.
 */
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { withHeaders } from '../../src/core/fast-response.js';
import { streamResponse, streamState } from '../../src/node/stream-response.js';

const answer = () => streamResponse({ status: 200, statusText: 'Fine', headers: ['Content-Type', 'text/plain', 'Vary', 'Accept-Encoding', 'Access-Control-Allow-Origin', 'https://upstream.example'], source: Readable.from([Buffer.from('a'), Buffer.from('b')]) });

describe('StreamResponse', () => {
  it('is a Response; the host pipes it while nobody read the body', async () => {
    const r = answer();
    expect(r).toBeInstanceOf(Response);
    expect([r.status, r.statusText, r.headers.get('content-type')]).toEqual([200, 'Fine', 'text/plain']);
    expect(streamState(r)).toBeDefined();
    expect(await r.text()).toBe('ab');
    expect(streamState(r)).toBeUndefined(); // read: no longer the host's to pipe
  });

  it('withHeaders (CORS) keeps the stream piped: named headers replaced, Vary added to, the body whole', async () => {
    const original = answer();
    const r = withHeaders(original, { 'Access-Control-Allow-Origin': 'http://localhost:5173', Vary: 'Origin' });
    const state = streamState(r);
    expect(state).toBeDefined();
    expect(state!.headers).toEqual(['Content-Type', 'text/plain', 'Vary', 'Accept-Encoding', 'Access-Control-Allow-Origin', 'http://localhost:5173', 'Vary', 'Origin']);
    expect(streamState(original)).toBeUndefined(); // the new answer owns the stream
    expect(r.headers.get('vary')).toBe('Accept-Encoding, Origin');
    expect(await r.text()).toBe('ab');
  });
});
