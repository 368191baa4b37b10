import { gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { pageCollector } from '../../src/sw/engines.js';
import type { Collector } from '../../src/tracker/types.js';

let c: Collector | undefined;
afterEach(async () => {
  await c?.close();
  c = undefined;
});

async function roundTrip(collector: Collector): Promise<Response> {
  const post = await collector.handle(new Request('http://localhost/_tracker/events', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ type: 'ingest', events: [{ timestamp: '2026-03-01T10:00:00Z', n: 1 }] }),
  }));
  expect(post?.status).toBe(200);
  const read = await collector.handle(new Request('http://localhost/_tracker?since=2026-03-01T00:00:00Z&until=2026-03-02T00:00:00Z', { headers: { 'accept-encoding': 'gzip, deflate' } }));
  expect(read?.status).toBe(200);
  return read!;
}

describe('the page host builds its collector with plain JSON reads', () => {
  it('by default a read is plain JSON even when the request accepts gzip', async () => {
    c = pageCollector({ appId: 'page', logLevel: 'silent' });
    const r = await roundTrip(c);
    expect(r.headers.get('content-encoding')).toBeNull();
    expect((await r.json()).events.map((e: { n: number }) => e.n)).toEqual([1]);
  });

  it("an explicit readCompression: 'gzip' is kept", async () => {
    c = pageCollector({ appId: 'page', logLevel: 'silent', readCompression: 'gzip' });
    const r = await roundTrip(c);
    expect(r.headers.get('content-encoding')).toBe('gzip');
    expect(JSON.parse(gunzipSync(new Uint8Array(await r.arrayBuffer())).toString()).events.map((e: { n: number }) => e.n)).toEqual([1]);
  });
});
