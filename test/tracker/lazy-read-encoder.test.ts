/**
 * readCompression 'none' never imports the gzip read encoder (read-encoder.ts, its own chunk in
 * browser bundles). A file of its own: a module graph in which nothing has imported the encoder
 * yet, whatever other tests do (vitest isolates each file).
 */
import { describe, expect, it, vi } from 'vitest';
import { createCollector } from '../../src/tracker/collector.js';
import { batch, ev, ingest, read } from './collector-client.js';

const loaded = vi.hoisted(() => new Set<string>());
vi.mock('../../src/tracker/read-encoder.js', async (importOriginal) => {
  loaded.add('read-encoder');
  return importOriginal();
});

const T = '2026-03-01T10:00:00Z';

describe('the gzip read encoder is loaded on demand', () => {
  it("readCompression 'none' never imports it; gzip bodies are still ingested", async () => {
    expect(loaded.has('read-encoder')).toBe(false);
    const c = createCollector({ appId: 'demo', logLevel: 'silent', readCompression: 'none' });
    try {
      expect((await ingest(c, batch([ev(T, { n: 1 })]), { gzip: true })).status).toBe(200);
      const r = await read(c, { since: '2026-03-01T00:00:00Z', until: '2026-03-02T00:00:00Z' }, { 'accept-encoding': 'gzip' });
      expect(r.headers.get('content-encoding')).toBeNull();
      expect(loaded.has('read-encoder')).toBe(false);
    } finally {
      await c.close();
    }
    // The record can tell: a collector that gzips its reads imports it before it is ready.
    const gzipping = createCollector({ appId: 'demo', logLevel: 'silent' });
    await gzipping.ready;
    expect(loaded.has('read-encoder')).toBe(true);
    await gzipping.close();
  });
});
