/**
 * The first bytes of a streamed body as they pass, for observers that must never read or hold a
 * stream (the devtools journal): the code that produces a stream (engine/streams/) notes each
 * chunk it sends; an observer holding the Response looks the preview up by its body stream (the
 * same ReadableStream object when a Response is rebuilt around it, e.g. for CORS headers) and
 * sees what has gone out so far. At most PREVIEW_LIMIT bytes are copied per stream.
 */
import { concatBytes } from './body.js';

export const PREVIEW_LIMIT = 16 * 1024;

export interface StreamPreview {
  /** The first bytes sent (at most PREVIEW_LIMIT). */
  readonly bytes: Uint8Array;
  /** Every byte sent so far. */
  readonly size: number;
  /** The stream ended (completed, failed or cancelled). */
  readonly done: boolean;
}

class Preview implements StreamPreview {
  private chunks: Uint8Array[] = [];
  private kept = 0;
  size = 0;
  done = false;

  get bytes(): Uint8Array {
    if (this.chunks.length !== 1) this.chunks = [concatBytes(this.chunks, this.kept)];
    return this.chunks[0]!;
  }

  note(chunk: Uint8Array): void {
    this.size += chunk.byteLength;
    const room = PREVIEW_LIMIT - this.kept;
    if (room <= 0) return;
    const part = chunk.byteLength > room ? chunk.slice(0, room) : chunk.slice();
    this.chunks.push(part);
    this.kept += part.byteLength;
  }
}

const previews = new WeakMap<ReadableStream<Uint8Array>, Preview>();

/** Starts the preview of `stream`; the producer calls `note` for each chunk it sends and `end` once. */
export function previewOf(stream: ReadableStream<Uint8Array>): { note(chunk: Uint8Array): void; end(): void } {
  const preview = new Preview();
  previews.set(stream, preview);
  return {
    note: (chunk) => preview.note(chunk),
    end: () => {
      preview.done = true;
    },
  };
}

/** What has passed through `stream` so far, when its producer keeps a preview. */
export function streamPreview(stream: ReadableStream<Uint8Array> | null): StreamPreview | undefined {
  return stream === null ? undefined : previews.get(stream);
}
