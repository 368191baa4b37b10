import { constants, deflateRawSync, gunzipSync, crc32 as nodeCrc32 } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { crc32, crc32Combine, deflateBytesPiece, deflatePiece, GzipAssembler, PieceDeflater, prepareDeflater } from '../../src/tracker/gzip-pieces.js';

const enc = new TextEncoder();
const deflateRawSyncFlush = (b: Uint8Array) => deflateRawSync(b, { level: 1, finishFlush: constants.Z_SYNC_FLUSH });

describe('gzip pieces', () => {
  // fflate is loaded on demand (the collector does this at creation when it gzips its reads).
  beforeAll(() => prepareDeflater({}));

  it('once prepared, pieces are really deflated (fflate), not stored', () => {
    const text = '{"type":"click","page":"/home"},'.repeat(2000);
    const piece = deflatePiece(text);
    expect(piece.size).toBe(text.length);
    expect(piece.deflatedSize).toBeLessThan(text.length / 10);
  });

  it('crc32 and crc32Combine agree with a whole-buffer CRC', () => {
    const a = enc.encode('hello, '.repeat(1000));
    const b = enc.encode('world! '.repeat(777));
    const whole = new Uint8Array(a.length + b.length);
    whole.set(a);
    whole.set(b, a.length);
    expect(crc32(whole)).toBe(crc32Combine(crc32(a), crc32(b), b.length));
    if (typeof nodeCrc32 === 'function') expect(crc32(whole)).toBe(nodeCrc32(whole));
  });

  it('crc32Combine agrees with a whole-buffer CRC for lengths from 1 byte to past 2^20', () => {
    let seed = 7;
    const bytes = (n: number) => Uint8Array.from({ length: n }, () => (seed = (seed * 1103515245 + 12345) >>> 0) >>> 24);
    for (const [la, lb] of [[0, 1], [1, 1], [3, 8], [100, 255], [5000, 65_536], [17, 300_001], [1, 1_048_577]] as const) {
      const a = bytes(la);
      const b = bytes(lb);
      const whole = new Uint8Array(la + lb);
      whole.set(a);
      whole.set(b, la);
      expect(crc32Combine(crc32(a), crc32(b), lb), `${la}+${lb}`).toBe(crc32(whole));
      expect(crc32(whole)).toBe(nodeCrc32(whole));
    }
  });

  it('deflateBytesPiece gives the same text as deflatePiece for UTF-8 bytes (native deflater and fallback)', async () => {
    const { deflateRawSync, constants } = await import('node:zlib');
    const text = '{"n":"é ✓ 😀","i":1},'.repeat(3000) + '{"end":true}';
    for (const native of [true, false]) {
      const codecs = native ? { deflateRaw: (b: Uint8Array) => deflateRawSync(b, { level: 1, finishFlush: constants.Z_SYNC_FLUSH }) } : {};
      const g = new GzipAssembler();
      const piece = deflateBytesPiece(enc.encode(text), codecs);
      expect(piece.size).toBe(enc.encode(text).byteLength);
      expect(piece.crc).toBe(crc32(enc.encode(text)));
      g.add(piece);
      expect(gunzipSync(g.finish()).toString()).toBe(text);
    }
  });

  it('concatenated sync-flushed pieces (one reused twice) gunzip to the joined text', () => {
    const g = new GzipAssembler();
    g.add(deflatePiece('{"events":['));
    const d = new PieceDeflater();
    const parts: string[] = [];
    for (let i = 0; i < 3000; i++) {
      const s = (i ? ',' : '') + JSON.stringify({ i, s: `hello world ${i}` });
      parts.push(s);
      d.push(s);
    }
    const p = d.finish();
    g.add(p);
    g.add(deflatePiece(','));
    g.add(p);
    g.add(deflatePiece(''));
    g.add(deflatePiece(']}'));
    const text = gunzipSync(g.finish()).toString();
    expect(text).toBe(`{"events":[${parts.join('')},${parts.join('')}]}`);
  });

  it('pieces stay concatenable whatever bit position the deflater ends on', () => {
    for (const n of [1, 2, 7, 100, 1000, 2000, 2200, 2500, 3000, 5000]) {
      for (const size of [7, 30, 3000]) {
        const d = new PieceDeflater();
        let text = '';
        for (let i = 0; i < n; i++) {
          const chunk = String(i).padEnd(size, 'x');
          text += chunk;
          d.push(chunk);
        }
        const p = d.finish();
        const g = new GzipAssembler();
        g.add(p);
        g.add(p);
        expect(gunzipSync(g.finish()).toString() === text + text, `n=${n} size=${size}`).toBe(true);
      }
    }
  });

  it('an empty member is valid gzip', () => {
    expect(gunzipSync(new GzipAssembler().finish()).length).toBe(0);
  });
});

describe("a runtime's native deflater", () => {
  it('pieces from zlib (sync flush) mix with fflate and stored pieces into valid gzip', async () => {
    const { deflateRawSync, constants } = await import('node:zlib');
    const fflatePiece = (() => {
      const d = new PieceDeflater();
      d.push('a'.repeat(5000));
      return d.finish();
    })();
    let calls = 0;
    let crcCalls = 0;
    const codecs = {
      deflateRaw: (b: Uint8Array) => {
        calls++;
        return deflateRawSync(b, { level: 1, finishFlush: constants.Z_SYNC_FLUSH });
      },
      crc32: (b: Uint8Array, crc: number) => {
        crcCalls++;
        return nodeCrc32(b, crc);
      },
    };
    const d = new PieceDeflater(codecs);
    const parts: string[] = [];
    for (let i = 0; i < 3000; i++) {
      const s = `${i ? ',' : ''}{"i":${i},"s":"hello ${i}"}`;
      parts.push(s);
      d.push(s);
    }
    const g = new GzipAssembler();
    g.add(deflatePiece('{"x":['));
    g.add(d.finish());
    g.add(fflatePiece);
    g.add(deflatePiece(']}'));
    expect(gunzipSync(g.finish()).toString()).toBe(`{"x":[${parts.join('')}${'a'.repeat(5000)}]}`);
    expect(calls).toBeGreaterThan(0);
    expect(crcCalls).toBeGreaterThan(0);
  });

  it('is the one of the deflater it was given: another deflater in the same process keeps fflate', () => {
    let calls = 0;
    const counted = { deflateRaw: (b: Uint8Array) => (calls++, deflateRawSyncFlush(b)) };
    const text = '{"type":"click","page":"/home"},'.repeat(2000);
    const native = new PieceDeflater(counted);
    native.push(text);
    const own = native.finish();
    expect(calls).toBe(1);
    const plain = new PieceDeflater();
    plain.push(text);
    const fflate = plain.finish();
    expect(calls).toBe(1);
    for (const piece of [own, fflate]) {
      const g = new GzipAssembler();
      g.add(piece);
      expect(gunzipSync(g.finish()).toString()).toBe(text);
    }
  });
});
