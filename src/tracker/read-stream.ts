/**
 * Read responses for stores that stream their windows (StreamedSelection: PostgreSQL): the body
 * is `{"events":[` + the stored JSON texts as they come, page by page + the trailer (`total`,
 * `page`, `limit`, `nextCursor`), written as the pages arrive, so a 24 h window is never held
 * whole. Gzip (level 1, as the embedded store's reads): each page is deflated as one piece ending
 * in a sync flush (gzip-pieces.ts) and sent at once; the CRC is combined piece by piece.
 *
 * The collector imports this module on demand, only for such stores (its own chunk in browser
 * bundles, which never have one).
 */
import { crc32Combine, PieceDeflater, type DeflatedPiece, type GzipCodecs } from './gzip-pieces.js';
import type { StreamedSelection } from './store.js';

export { acceptsGzip } from './accept-encoding.js';
export { prepareDeflater } from './gzip-pieces.js';

const encoder = new TextEncoder();
const GZIP_HEADER = Uint8Array.of(0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff);
const FINAL_EMPTY_BLOCK = Uint8Array.of(0x03, 0x00);

/** The response's tail, once every chunk was read. */
function trailer(sel: StreamedSelection): string {
  const { limit, nextCursor } = sel.end();
  const cursor = nextCursor === undefined ? '' : `,"nextCursor":${JSON.stringify(nextCursor)}`;
  return `],"total":${sel.total},"page":${sel.page === null ? 'null' : sel.page},"limit":${limit}${cursor}}`;
}

const isPiece = (chunk: string[] | DeflatedPiece): chunk is DeflatedPiece => !Array.isArray(chunk);

/** The response in pieces: head, pages joined by commas (or ready deflated pieces), trailer. */
async function* textPieces(sel: StreamedSelection): AsyncGenerator<string | DeflatedPiece> {
  let first = true;
  yield '{"events":[';
  for await (const chunk of sel.chunks) {
    if (isPiece(chunk)) {
      if (chunk.size === 0) continue;
      if (!first) yield ',';
      yield chunk;
    } else {
      if (chunk.length === 0) continue;
      yield first ? chunk.join(',') : `,${chunk.join(',')}`;
    }
    first = false;
  }
  yield trailer(sel);
}

/** The whole response as text (WebSocket answers). */
export async function selectionText(sel: StreamedSelection): Promise<string> {
  let out = '';
  for await (const piece of textPieces(sel)) {
    if (typeof piece !== 'string') throw new Error('a deflated piece in a plain read (the store was asked for text)');
    out += piece;
  }
  return out;
}

/**
 * The response body as a byte stream, gzip level 1 (with the runtime's `codecs`, gzip-pieces.ts)
 * or plain. Cancelling it ends the read.
 */
export function selectionBody(sel: StreamedSelection, gzip: boolean, codecs: GzipCodecs = {}): ReadableStream<Uint8Array> {
  const pieces = textPieces(sel);
  let crc = 0;
  let size = 0;
  let started = false;
  let done = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (done) return;
      const next = await pieces.next();
      if (!gzip) {
        if (next.done) {
          done = true;
          controller.close();
        } else if (typeof next.value === 'string') controller.enqueue(encoder.encode(next.value));
        else controller.error(new Error('a deflated piece in a plain read (the store was asked for text)'));
        return;
      }
      if (!started) {
        started = true;
        controller.enqueue(GZIP_HEADER);
      }
      if (next.done) {
        done = true;
        const tail = new Uint8Array(FINAL_EMPTY_BLOCK.byteLength + 8);
        tail.set(FINAL_EMPTY_BLOCK, 0);
        const view = new DataView(tail.buffer);
        view.setUint32(2, crc >>> 0, true);
        view.setUint32(6, size % 0x100000000, true);
        controller.enqueue(tail);
        controller.close();
        return;
      }
      let piece: DeflatedPiece;
      if (typeof next.value === 'string') {
        const d = new PieceDeflater(codecs);
        d.push(next.value);
        piece = d.finish();
      } else piece = next.value;
      if (piece.size === 0) return;
      crc = crc32Combine(crc, piece.crc, piece.size);
      size += piece.size;
      for (const b of piece.bytes) controller.enqueue(b);
    },
    async cancel() {
      await pieces.return(undefined);
      await sel.close();
    },
  }, { highWaterMark: 0 });
}
