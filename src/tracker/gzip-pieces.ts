/**
 * Gzip output assembled from independently deflated pieces (level 1: the runtime's native
 * deflater, else fflate, pure JS, loaded on demand by `prepareDeflater()` so browser bundles split
 * it out). The native codecs come in as a `GzipCodecs` value (the collector's runtime object),
 * never through module state: two collectors on different runtimes keep their own.
 *
 * Each piece is a raw DEFLATE stream ended with a sync flush (byte-aligned, not final), so pieces
 * concatenate into one valid stream (RFC 1951); the CRC-32 of the whole is combined from the
 * pieces' CRCs (zlib's crc32_combine), so a piece deflated once can be reused by later reads
 * without touching its bytes again. `finish()` adds the gzip header, a final empty block and the
 * trailer (RFC 1952).
 */
import type { Deflate } from 'fflate';

const CRC_TABLE = (() => {
  const t = new Int32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c;
  }
  return t;
})();

/**
 * Optional native CRC-32 a runtime may give (Node: `zlib.crc32`, continuing from `crc`); the
 * table-driven one below is the fallback (several times slower on the megabytes of a read).
 */
export type Crc32 = (bytes: Uint8Array, crc: number) => number;

/** CRC-32 of `bytes` continuing from `crc`; `native`: the runtime's, else the table. */
export function crc32(bytes: Uint8Array, crc = 0, native?: Crc32): number {
  if (native) return native(bytes, crc) >>> 0;
  let c = ~crc;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return ~c >>> 0;
}

const POLY = 0xedb88320;

/** a(x)·b(x) modulo the CRC-32 polynomial (reflected bit order; zlib's multmodp). */
function multModP(a: number, b: number): number {
  let p = 0;
  for (let m = 0x80000000; m !== 0; m >>>= 1) {
    if (a & m) {
      p ^= b;
      if ((a & (m - 1)) === 0) break;
    }
    b = b & 1 ? (b >>> 1) ^ POLY : b >>> 1;
  }
  return p >>> 0;
}

/** x^(2^n) modulo the polynomial, n = 0..31 (zlib's x2n_table). */
const X2N = (() => {
  const t = new Uint32Array(32);
  let p = 1 << 30; // x^1
  t[0] = p;
  for (let n = 1; n < 32; n++) t[n] = p = multModP(p, p);
  return t;
})();

/**
 * CRC-32 of A‖B from crc(A), crc(B) and the length of B (zlib's crc32_combine, its
 * x^(8·len2) mod p form: about log2(len2) small multiplications, so whole-window reads can
 * combine hundreds of ready pieces at no noticeable cost).
 */
export function crc32Combine(crc1: number, crc2: number, len2: number): number {
  if (len2 <= 0) return crc1 >>> 0;
  let p = 0x80000000; // x^0
  let k = 3; // 8 bits a byte: x^(8·len2) = x^(len2 · 2^3)
  for (let n = len2; n > 0; n = Math.floor(n / 2), k++) if (n % 2) p = multModP(X2N[k & 31]!, p);
  return (multModP(p, crc1 >>> 0) ^ crc2) >>> 0;
}

/** A deflated piece: raw DEFLATE ending in a sync flush, with the CRC and length of its input. */
export interface DeflatedPiece {
  bytes: Uint8Array[];
  crc: number;
  /** Uncompressed length. */
  size: number;
  /** Compressed length. */
  deflatedSize: number;
}

/**
 * Optional native deflater a runtime may give (the pure-JS fflate path is the default and works
 * everywhere): raw DEFLATE at level 1 ending in a sync flush, e.g. on Node
 * `(b) => zlib.deflateRawSync(b, { level: 1, finishFlush: zlib.constants.Z_SYNC_FLUSH })`.
 * Each slice is then deflated on its own (sync-flushed streams concatenate), several times faster
 * than fflate for reads that find nothing deflated yet.
 */
export type RawSyncDeflate = (bytes: Uint8Array) => Uint8Array;

/** The native codecs a runtime gives gzip pieces (the collector's runtime object); `{}`: fflate and the CRC table. */
export interface GzipCodecs {
  readonly deflateRaw?: RawSyncDeflate;
  readonly crc32?: Crc32;
}

/** fflate's streaming Deflate once `prepareDeflater()` has loaded it. */
let JsDeflate: typeof Deflate | undefined;
let loading: Promise<void> | undefined;

/**
 * Makes a deflater available to PieceDeflater: nothing to do when `codecs` has a native one,
 * else fflate is imported (once; a dynamic import, so bundlers put it in its own chunk, fetched
 * only by collectors that gzip their reads). Never rejects: if the import fails, pieces are
 * written as stored blocks (valid gzip, uncompressed) and the failure is reported to `onError`.
 */
export function prepareDeflater(codecs: GzipCodecs, onError?: (err: unknown) => void): Promise<void> {
  if (codecs.deflateRaw || JsDeflate) return Promise.resolve();
  loading ??= import('fflate').then(
    (m) => {
      JsDeflate = m.Deflate;
    },
    (err: unknown) => {
      loading = undefined;
      onError?.(err);
    },
  );
  return loading;
}

/** Text handed to a native deflater per call (each call is an independent sync-flushed stream). */
const NATIVE_SLICE_CHARS = 256 * 1024;

/** Below this many characters a piece is written as a stored block (no deflater, no tables). */
const STORED_MAX_CHARS = 1024;

/** Largest stored block payload (RFC 1951 LEN is 16 bits). */
const STORED_BLOCK_MAX = 65535;

/** `bytes` as non-final stored blocks (each: header byte, LEN, NLEN, the bytes). */
function storedBlocks(bytes: Uint8Array): Uint8Array[] {
  const blocks: Uint8Array[] = [];
  for (let at = 0; at < bytes.byteLength; at += STORED_BLOCK_MAX) {
    const part = bytes.subarray(at, at + STORED_BLOCK_MAX);
    const n = part.byteLength;
    const block = new Uint8Array(5 + n);
    block.set([0x00, n & 0xff, n >>> 8, ~n & 0xff, (~n >>> 8) & 0xff]);
    block.set(part, 5);
    blocks.push(block);
  }
  return blocks;
}

/**
 * Deflates text fed in chunks (level 1) into one reusable piece. Tiny pieces (separators, the
 * envelope's head and tail) become a stored block instead: a streaming Deflate allocates its hash
 * tables up front, which would cost more than the text itself.
 */
export class PieceDeflater {
  private readonly out: Uint8Array[] = [];
  private outSize = 0;
  private crc = 0;
  private size = 0;
  private deflate: Deflate | undefined;
  private native: RawSyncDeflate | undefined;
  private small = '';
  private storedOnly = false;
  private static readonly encoder = new TextEncoder();

  constructor(private readonly codecs: GzipCodecs = {}) {}

  push(text: string): void {
    if (text === '') return;
    if (this.native) {
      this.small += text;
      if (this.small.length >= NATIVE_SLICE_CHARS) this.flushNative();
      return;
    }
    if (!this.deflate) {
      this.small += text;
      if (this.storedOnly || this.small.length < STORED_MAX_CHARS) return;
      text = this.small;
      this.small = '';
      if (this.codecs.deflateRaw) {
        this.native = this.codecs.deflateRaw;
        this.small = text;
        return;
      }
      if (!JsDeflate) {
        // No deflater loaded (prepareDeflater not awaited, or its import failed): stored blocks.
        this.small = text;
        this.storedOnly = true;
        return;
      }
      // mem 4: a 64 Ki-entry hash table (fflate's streaming default is 1 Mi entries, 2 MiB).
      this.deflate = new JsDeflate({ level: 1, mem: 4 }, (chunk) => {
        this.out.push(chunk);
        this.outSize += chunk.byteLength;
      });
    }
    const bytes = PieceDeflater.encoder.encode(text);
    this.crc = crc32(bytes, this.crc, this.codecs.crc32);
    this.size += bytes.byteLength;
    this.deflate.push(bytes);
  }

  private flushNative(): void {
    if (this.small === '') return;
    const bytes = PieceDeflater.encoder.encode(this.small);
    this.small = '';
    this.crc = crc32(bytes, this.crc, this.codecs.crc32);
    this.size += bytes.byteLength;
    const out = this.native!(bytes);
    this.out.push(out);
    this.outSize += out.byteLength;
  }

  finish(): DeflatedPiece {
    if (this.native) {
      this.flushNative();
      return { bytes: this.out, crc: this.crc, size: this.size, deflatedSize: this.outSize };
    }
    if (!this.deflate) {
      // Stored blocks: header byte (BFINAL 0, BTYPE 00, padding), LEN, NLEN, the bytes.
      const bytes = PieceDeflater.encoder.encode(this.small);
      if (bytes.byteLength === 0) return { bytes: [], crc: 0, size: 0, deflatedSize: 0 };
      const blocks = storedBlocks(bytes);
      return { bytes: blocks, crc: crc32(bytes, 0, this.codecs.crc32), size: bytes.byteLength, deflatedSize: blocks.reduce((n, b) => n + b.byteLength, 0) };
    }
    // fflate 0.8.3's flush(true) writes a broken empty stored block whenever the last output byte
    // is partial (it passes its packed state as a bit position), so the sync marker is written
    // here: flush(false) emits every complete byte and keeps the partial one in its state `s.r`
    // (bit count in the low 3 bits, the byte's value above); we append that byte with an empty,
    // non-final stored block (3 header bits, padding to the byte boundary, LEN 0, NLEN 0xffff).
    this.deflate.flush(false);
    const r = (this.deflate as unknown as { s: { r?: number } }).s.r ?? 0;
    const bits = r & 7;
    const tail = bits === 0 ? [0x00] : bits <= 5 ? [(r >> 3) & 0xff] : [(r >> 3) & 0xff, 0x00];
    const marker = Uint8Array.from([...tail, 0x00, 0x00, 0xff, 0xff]);
    this.out.push(marker);
    this.outSize += marker.byteLength;
    return { bytes: this.out, crc: this.crc, size: this.size, deflatedSize: this.outSize };
  }
}

/** Deflates one text into a piece. */
export function deflatePiece(text: string, codecs: GzipCodecs = {}): DeflatedPiece {
  const d = new PieceDeflater(codecs);
  d.push(text);
  return d.finish();
}

const utf8 = new TextDecoder();

/**
 * Deflates UTF-8 text given as bytes into a piece: a native deflater takes them as they are (no
 * string made and encoded again: a store's rows can go from the socket to the deflater), else
 * they are decoded and deflated as text.
 */
export function deflateBytesPiece(bytes: Uint8Array, codecs: GzipCodecs = {}): DeflatedPiece {
  if (!codecs.deflateRaw || bytes.byteLength < STORED_MAX_CHARS) return deflatePiece(utf8.decode(bytes), codecs);
  const out = codecs.deflateRaw(bytes);
  return { bytes: [out], crc: crc32(bytes, 0, codecs.crc32), size: bytes.byteLength, deflatedSize: out.byteLength };
}

const HEADER = Uint8Array.of(0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff);
const FINAL_EMPTY_BLOCK = Uint8Array.of(0x03, 0x00);

/** Concatenates pieces into one gzip member. */
export class GzipAssembler {
  private readonly parts: Uint8Array[] = [HEADER];
  private length = HEADER.byteLength;
  private crc = 0;
  private size = 0;

  add(piece: DeflatedPiece): void {
    if (piece.size === 0) return;
    for (const b of piece.bytes) this.parts.push(b);
    this.length += piece.deflatedSize;
    this.crc = crc32Combine(this.crc, piece.crc, piece.size);
    this.size += piece.size;
  }

  finish(): Uint8Array {
    const out = new Uint8Array(this.length + FINAL_EMPTY_BLOCK.byteLength + 8);
    let at = 0;
    for (const p of this.parts) {
      out.set(p, at);
      at += p.byteLength;
    }
    out.set(FINAL_EMPTY_BLOCK, at);
    at += 2;
    const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
    view.setUint32(at, this.crc >>> 0, true);
    view.setUint32(at + 4, this.size % 0x100000000, true);
    return out;
  }
}
