import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { Collector } from '../../src/tracker/types.js';
import { memoryFs } from '../../src/vfs/memory.js';
import { BASE, batch, ev, ingest, readAll, recordingLogger, collectorPerTest } from './collector-client.js';

const T = '2026-03-01T10:00:00.000Z';
let c: Collector;
/**
 * Counts the bytes every DecompressionStream created meanwhile hands on (what a gzip body was
 * inflated to), by putting a counting subclass in its place until `restore()`.
 */
function countInflatedBytes(): { readonly bytes: number; restore(): void } {
  const Original = globalThis.DecompressionStream;
  const counter = { bytes: 0, restore: () => void (globalThis.DecompressionStream = Original) };
  globalThis.DecompressionStream = class extends Original {
    constructor(format: CompressionFormat) {
      super(format);
      const readable = super.readable.pipeThrough(new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          counter.bytes += chunk.byteLength;
          controller.enqueue(chunk);
        },
      }));
      Object.defineProperty(this, 'readable', { value: readable });
    }
  };
  return counter;
}

const make = collectorPerTest((created) => (c = created));

describe('ingest', () => {
  it('stores a plain JSON batch and answers { ok: true, saved: N }', async () => {
    make();
    const r = await ingest(c, batch([ev(T, { n: 1 }), ev(T, { n: 2 })]));
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ ok: true, saved: 2 });
    const all = await readAll(c);
    expect(all.total).toBe(2);
    expect(all.events.map((e: any) => e.n).sort()).toEqual([1, 2]);
  });

  it('accepts gzip with Content-Encoding: gzip', async () => {
    make();
    const r = await ingest(c, batch([ev(T, { n: 1 })]), { gzip: true });
    expect(r.json).toEqual({ ok: true, saved: 1 });
    expect((await readAll(c)).events[0].n).toBe(1);
  });

  it('accepts gzip recognised by its magic bytes without the header', async () => {
    make();
    const raw = gzipSync(JSON.stringify(batch([ev(T, { n: 7 })])));
    const r = await ingest(c, undefined, { raw });
    expect(r.json).toEqual({ ok: true, saved: 1 });
    expect((await readAll(c)).events[0].n).toBe(7);
  });

  it('accepts beacons: text/plain or application/json, no custom headers, key in ?key=', async () => {
    make({ apiKey: 's3cret' });
    const body = JSON.stringify(batch([ev(T, { n: 1 })]));
    const viaText = await c.handle(new Request(`${BASE}/_tracker/events?key=s3cret`, { method: 'POST', body, headers: { 'content-type': 'text/plain;charset=UTF-8' } }));
    expect(viaText!.status).toBe(200);
    const viaBlob = await c.handle(new Request(`${BASE}/_tracker/events?key=s3cret`, { method: 'POST', body: new Blob([body], { type: 'application/json' }) }));
    expect(viaBlob!.status).toBe(200);
    const noKey = await c.handle(new Request(`${BASE}/_tracker/events`, { method: 'POST', body }));
    expect(noKey!.status).toBe(401);
    expect(c.size).toBe(2);
  });

  it('assigns every event a new unique, time-ordered UUIDv7 whatever id the client sent', async () => {
    make();
    const events = Array.from({ length: 300 }, (_, i) => ev(T, { id: i % 2 ? 'client-id' : '', n: i }));
    await ingest(c, batch(events));
    await ingest(c, batch(events));
    const all = await readAll(c);
    const ids = all.events.map((e: any) => e.id);
    expect(ids).toHaveLength(600);
    expect(new Set(ids).size).toBe(600);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    // same timestamp → newest ingested first; ids are created in order, so they sort the same way
    expect([...ids].sort().reverse()).toEqual(ids);
  });

  it('keeps the client fields and the original timestamp text', async () => {
    make();
    await ingest(c, batch([{ id: '', timestamp: '2026-03-01T12:00:00+02:00', type: 'error', level: 'error', userId: 'u1', route: '/x', nested: { a: [1, 2] } }]));
    const [e] = (await readAll(c)).events;
    expect(e).toMatchObject({ timestamp: '2026-03-01T12:00:00+02:00', type: 'error', level: 'error', userId: 'u1', route: '/x', nested: { a: [1, 2] } });
  });

  describe('malformed envelope → 400, nothing stored', () => {
    const cases: Array<[string, string]> = [
      ['not JSON', '{"type":"ingest","events":['],
      ['an array', '[]'],
      ['wrong type', JSON.stringify({ type: 'track', events: [ev(T)] })],
      ['no type', JSON.stringify({ events: [ev(T)] })],
      ['events not an array', JSON.stringify({ type: 'ingest', events: {} })],
      ['empty events', JSON.stringify({ type: 'ingest', events: [] })],
      ['empty body', ''],
      ['forbidden key', '{"type":"ingest","events":[{"id":"","timestamp":"2026-03-01T10:00:00Z","meta":{"__proto__":{"x":1}}}]}'],
    ];
    for (const [name, raw] of cases) {
      it(name, async () => {
        make();
        const r = await ingest(c, undefined, { raw });
        expect(r.status).toBe(400);
        expect(r.json).toMatchObject({ status: 400, error: 'BAD_REQUEST' });
        expect(typeof r.json.message).toBe('string');
        expect(c.size).toBe(0);
      });
    }
  });

  it('malformed gzip → 400', async () => {
    make();
    const good = gzipSync(JSON.stringify(batch([ev(T)])));
    const r = await ingest(c, undefined, { raw: good.subarray(0, good.length - 12), headers: { 'content-encoding': 'gzip' } });
    expect(r.status).toBe(400);
    const r2 = await ingest(c, undefined, { raw: '{"type":"ingest"}', headers: { 'content-encoding': 'gzip' } });
    expect(r2.status).toBe(400);
    expect(c.size).toBe(0);
  });

  it('gzip: concatenated members are one body; a corrupt CRC or trailing garbage → 400 naming gzip', async () => {
    make();
    const text = JSON.stringify(batch([ev(T, { n: 1 })]));
    const cut = text.length >> 1;
    const two = Buffer.concat([gzipSync(text.slice(0, cut)), gzipSync(text.slice(cut))]);
    expect((await ingest(c, undefined, { raw: two, headers: { 'content-encoding': 'gzip' } })).status).toBe(200);
    expect(c.size).toBe(1);
    const badCrc = Buffer.from(gzipSync(text));
    badCrc[badCrc.length - 6]! ^= 1;
    const trailing = Buffer.concat([gzipSync(text), Buffer.from('garbage')]);
    for (const raw of [badCrc, trailing]) {
      const r = await ingest(c, undefined, { raw, headers: { 'content-encoding': 'gzip' } });
      expect(r.status).toBe(400);
      expect(r.json.message).toMatch(/^Malformed gzip body: /);
    }
    expect(c.size).toBe(1);
  });

  it('an unsupported Content-Encoding → 415', async () => {
    make();
    const r = await ingest(c, batch([ev(T)]), { headers: { 'content-encoding': 'br' } });
    expect(r.status).toBe(415);
  });

  describe('invalid event → 422 naming index and reason; the batch is all-or-nothing', () => {
    const cases: Array<[string, unknown, RegExp]> = [
      ['not an object', 42, /index 1: event is not an object/],
      ['an array', [1], /index 1: event is not an object/],
      ['null', null, /index 1: event is not an object/],
      ['no timestamp', { id: '', type: 'x' }, /index 1: missing timestamp/],
      ['timestamp not a string', { id: '', timestamp: 1700000000000 }, /index 1: timestamp must be a string/],
      ['not ISO', { id: '', timestamp: 'yesterday' }, /index 1: timestamp is not an ISO-8601/],
      ['no offset', { id: '', timestamp: '2026-03-01T10:00:00' }, /index 1: timestamp is not an ISO-8601/],
      ['impossible date', { id: '', timestamp: '2026-02-30T10:00:00Z' }, /index 1: timestamp is out of range/],
      ['before year 0000 once the offset applies', { id: '', timestamp: '0000-01-01T00:30:00+01:00' }, /index 1: timestamp is out of range/],
      ['after year 9999 once the offset applies', { id: '', timestamp: '9999-12-31T23:30:00-01:00' }, /index 1: timestamp is out of range/],
    ];
    for (const [name, bad, message] of cases) {
      it(name, async () => {
        make();
        const r = await ingest(c, batch([ev(T), bad, ev(T)]));
        expect(r.status).toBe(422);
        expect(r.json.message).toMatch(message);
        expect(r.json.index).toBe(1);
        expect(c.size).toBe(0);
      });
    }
  });

  it('an event nested deeper than JSON.stringify can write → 422, not a 500 retried for ever', async () => {
    make();
    const deep = '['.repeat(20_000) + ']'.repeat(20_000);
    const raw = `{"type":"ingest","events":[${JSON.stringify(ev(T))},{"id":"","timestamp":"${T}","a":${deep}}]}`;
    const r = await ingest(c, undefined, { raw });
    expect(r.status).toBe(422);
    expect(r.json.message).toMatch(/index 1: event nests deeper than 64 levels/);
    expect(c.size).toBe(0);
    const ok = await ingest(c, batch([ev(T, { a: { b: { c: [1, [2, [3]]] } } })]));
    expect(ok.status).toBe(200);
  });

  describe('limits → 413, nothing stored, collector still serves', () => {
    it('compressed body size', async () => {
      const log = recordingLogger();
      make({ limits: { maxBodyBytes: 1000 }, logger: log.sink });
      const big = batch([ev(T, { pad: 'x'.repeat(2000) })]);
      const r = await ingest(c, big);
      expect(r.status).toBe(413);
      expect(r.json.error).toBe('PAYLOAD_TOO_LARGE');
      // the same body gzip-compressed fits
      const ok = await ingest(c, big, { gzip: true });
      expect(ok.status).toBe(200);
      expect(c.size).toBe(1);
    });

    it('decompressed size: a gzip bomb stops at the limit', async () => {
      make({ limits: { maxDecompressedBytes: 1024 * 1024 } });
      // ~50 MB of digits inside a valid-looking envelope start, ~50 KB compressed
      const bomb = gzipSync(Buffer.concat([Buffer.from('{"type":"ingest","events":[{"timestamp":"2026-03-01T10:00:00Z","x":"'), Buffer.alloc(50 * 1024 * 1024, 0x30)]), { level: 9 });
      expect(bomb.length).toBeLessThan(1024 * 1024);
      const inflated = countInflatedBytes();
      let r: Awaited<ReturnType<typeof ingest>>;
      try {
        r = await ingest(c, undefined, { raw: bomb, headers: { 'content-encoding': 'gzip' } });
      } finally {
        inflated.restore();
      }
      expect(r.status).toBe(413);
      expect(r.json.message).toMatch(/Decompressed request body exceeds the limit of 1048576 bytes/);
      // The decompressor stopped a few chunks past the 1 MiB limit, not at the bomb's 50 MB.
      expect(inflated.bytes).toBeGreaterThan(1024 * 1024);
      expect(inflated.bytes).toBeLessThan(2 * 1024 * 1024);
      expect(c.size).toBe(0);
      expect((await ingest(c, batch([ev(T)]))).status).toBe(200);
    });

    it('plain bodies are held to the decompressed limit too', async () => {
      make({ limits: { maxDecompressedBytes: 500, maxBodyBytes: 10_000 } });
      const r = await ingest(c, batch([ev(T, { pad: 'x'.repeat(1000) })]));
      expect(r.status).toBe(413);
      expect(c.size).toBe(0);
    });

    it('events per batch', async () => {
      make({ limits: { maxEvents: 3 } });
      const r = await ingest(c, batch([ev(T), ev(T), ev(T), ev(T)]));
      expect(r.status).toBe(413);
      expect(r.json.message).toMatch(/4.*limit is 3/);
      expect(c.size).toBe(0);
      expect((await ingest(c, batch([ev(T), ev(T), ev(T)]))).json).toEqual({ ok: true, saved: 3 });
    });
  });

  it('other methods on the ingest route → 405 with Allow', async () => {
    make();
    // GET/HEAD read (a GET without a window is the read's 400)
    expect((await c.handle(new Request(`${BASE}/_tracker/events`)))!.status).toBe(400);
    const r = await c.handle(new Request(`${BASE}/_tracker/events`, { method: 'DELETE' }));
    expect(r!.status).toBe(405);
    expect(r!.headers.get('allow')).toBe('GET, HEAD, POST, OPTIONS');
  });

  it('works on a Vfs too', async () => {
    const fs = memoryFs();
    make({ storage: { fs } });
    await ingest(c, batch([ev(T)]));
    expect(await fs.readdir('events')).toEqual([{ name: '2026-03-01T10.jsonl', kind: 'file' }]);
  });
});
