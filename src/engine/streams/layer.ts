/**
 * The streams layer: a request whose path the files layer's lookup resolves to a recorded stream
 * (`chat.sse`, `feed.ndjson`, recordings/recorded-format.ts) is answered by replaying it with its timing,
 * instead of the file's bytes at once.
 *
 *   GET|POST /api/chat  →  mocks/chat.sse  →  text/event-stream, each event after its `delay`
 *
 * POST is answered like GET (a chat completion is a POST; its body is read and not used). HEAD
 * answers the head. Delays are divided by the speed (the request's `X-Mockyard-Speed` /
 * `?__speed=`, else `streams.speed`, else 1; 0 = at once). `Last-Event-ID` resumes after the
 * event with that id. The global `delay` applies before the head (the runner), gatewayTimeout
 * does not cut a stream (it bounds handlers' work until their answer's head).
 *
 * Sits before the files layer and uses its lookup cache (the same file the files layer would
 * serve); its `peek` passes at once for paths the cache knows to be another file or none, so
 * cached files keep their synchronous fast path.
 * Order: after the replay layers, before graphql, collections and files: a `.sse`/`.ndjson` file
 *   is replayed with its timing instead of sent at once by the files layer.
 */
import { readBody } from '../../core/body.js';
import { contentTypeFor } from '../../core/media-type.js';
import type { RequestContext } from '../context.js';
import { FsCall, relativeToFsDir } from '../file-cache/fs-call.js';
import type { FileEntry } from '../file-cache/file-cache.js';
import type { FilesLayer } from '../file-cache/files-layer.js';
import { PASS, type Layer } from '../pipeline/layer.js';
import { iterableBody } from './iterable-body.js';
import type { ResolvedStreams } from './options.js';
import { isStreamPath, parseNdjsonFile, parseSseFile, streamFormatOfPath, type RecordedPart } from '../recordings/recorded-format.js';
import { resumeAfter, SSE_HEADERS } from './responses.js';
import { requestedSpeed } from './speed.js';

export const STREAMS_LAYER = 'streams';

const METHODS = new Set(['GET', 'HEAD', 'POST']);

export function createStreamsLayer(files: FilesLayer, options: ResolvedStreams, bodyLimit: number): Layer {
  const parsed = new WeakMap<FileEntry, RecordedPart[]>();
  const closing = new AbortController();

  function partsOf(entry: FileEntry, format: 'sse' | 'ndjson'): RecordedPart[] {
    let parts = parsed.get(entry);
    if (parts === undefined) {
      const text = new TextDecoder().decode(entry.bytes);
      parts = format === 'sse' ? parseSseFile(text) : parseNdjsonFile(text);
      parsed.set(entry, parts);
    }
    return parts;
  }

  async function replay(ctx: RequestContext): Promise<Response | undefined> {
    const mode = files.mode() ?? ((await files.ready) ? files.mode() : undefined);
    if (mode === undefined) return undefined;
    const call = new FsCall(ctx, ctx.subPath, null, null, undefined);
    let entry: FileEntry | null;
    try {
      const path = await mode.env.cache.lookup(call.key, call);
      if (path === null || streamFormatOfPath(path) === undefined) return undefined;
      entry = await mode.env.cache.entry(path);
    } catch {
      return undefined; // an unsafe path or a read error: the files layer gives the same answer
    }
    if (entry === null) return undefined;
    const format = streamFormatOfPath(entry.path)!;
    const speed = requestedSpeed(ctx.request) ?? options.speed;
    if (ctx.method === 'POST') await readBody(ctx.request, bodyLimit);
    ctx.answered(STREAMS_LAYER, relativeToFsDir(mode.env, entry.path));
    const headers = format === 'sse' ? { ...SSE_HEADERS } : { 'Content-Type': contentTypeFor(entry.path), 'Cache-Control': 'no-cache', 'X-Accel-Buffering': 'no' };
    if (ctx.method === 'HEAD') return new Response(null, { status: 200, headers });
    const lastEventId = format === 'sse' ? ctx.request.headers.get('last-event-id') : null;
    const parts = resumeAfter(partsOf(entry, format), lastEventId) as RecordedPart[];
    const body = iterableBody<RecordedPart>(parts, { encode: (p) => p.text, delayOf: (p) => p.delay, speed, lastEventId, signal: closing.signal });
    return new Response(body, { status: 200, headers });
  }

  return {
    name: STREAMS_LAYER,
    peek(ctx) {
      if (!METHODS.has(ctx.method)) return PASS;
      const mode = files.mode();
      if (mode === undefined) return files.peek?.(ctx) === PASS ? PASS : undefined;
      const path = mode.env.cache.lookupNow(ctx.subPath);
      if (path === undefined) return undefined;
      return path !== null && isStreamPath(path) ? undefined : PASS;
    },
    handle(ctx) {
      if (!METHODS.has(ctx.method)) return undefined;
      return replay(ctx);
    },
    close() {
      closing.abort();
    },
  };
}
