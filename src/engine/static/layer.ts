/**
 * Static files beside the API (`static`, json-server's `--static` and its default `./public`):
 * GET/HEAD of a file in one of the folders (the first holding it wins) that nothing of the API
 * answered (after files and collections: the API's fast path stays as it is).
 * `/` and `…/` serve `index.html`. Paths go through `requestPathToVfs` (400 on traversal tricks)
 * and the Vfs (never above its root; links leaving it are refused by the disk driver).
 *
 * Answers carry the type (core/media-type.ts), `Accept-Ranges: bytes`, a weak `ETag` and
 * `Last-Modified` from the file's size and mtime, and `Cache-Control: no-cache` (a dev server:
 * always revalidate); `If-None-Match` / `If-Modified-Since` → 304; one `Range` → 206 (416 past
 * the end; `If-Range` honoured). Anything else (other methods, no such file) goes to the next layer.
 * Order: after files and the OpenAPI mock, before proxy: a static file only where the API answered
 *   nothing, and before the network.
 */
import { FastResponse } from '../../core/fast-response.js';
import { OptionsError } from '../../core/options.js';
import { contentTypeFor } from '../../core/media-type.js';
import { requestPathToVfs, type RequestPath } from '../../vfs/path.js';
import type { Vfs, VfsStat } from '../../vfs/types.js';
import type { DefaultFsFactory } from '../../vfs/default-fs.js';
import { PASS, type Layer } from '../pipeline/layer.js';
import { parseRange } from './range.js';

function etagOf(st: VfsStat): string {
  return `W/"${st.size.toString(16)}-${Math.floor(st.mtimeMs).toString(16)}"`;
}

/**
 * Folders given by name are opened here with the runtime's `defaultFs` (disk, Node) and closed
 * with the layer; a given Vfs stays the caller's.
 */
export function createStaticLayer(sources: ReadonlyArray<string | Vfs>, root: string | undefined, defaultFs: DefaultFsFactory | undefined): Layer {
  const owned: Vfs[] = [];
  const folders = sources.map((s) => {
    if (typeof s !== 'string') return s;
    if (!defaultFs) throw new OptionsError('mock.static', 'a folder needs the Node entry (in a page, give a Vfs)');
    const vfs = defaultFs(s, root);
    owned.push(vfs);
    return vfs;
  });
  async function find(p: RequestPath): Promise<{ vfs: Vfs; path: string; st: VfsStat } | undefined> {
    const candidates = p.path === '' || p.trailingSlash ? [p.path === '' ? 'index.html' : `${p.path}/index.html`] : [p.path];
    for (const vfs of folders) {
      for (const path of candidates) {
        const st = await vfs.stat(path).catch(() => null);
        if (st?.kind === 'file') return { vfs, path, st };
      }
    }
    return undefined;
  }

  return {
    name: 'static',
    ownDelay: true, // `delay` simulates the API's latency: static files are not delayed (as json-server 0.17's --delay)
    peek(ctx) {
      return ctx.method === 'GET' || ctx.method === 'HEAD' ? undefined : PASS;
    },
    async handle(ctx) {
      if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return undefined;
      let p: RequestPath;
      try {
        p = requestPathToVfs(ctx.subPath || '/');
      } catch {
        return undefined; // file mode answers the 400
      }
      const hit = await find(p);
      if (!hit) return undefined;
      const { st } = hit;
      const head = ctx.method === 'HEAD';
      const etag = etagOf(st);
      const modified = new Date(Math.floor(st.mtimeMs / 1000) * 1000).toUTCString();
      const headers: Record<string, string> = {
        'Content-Type': contentTypeFor(hit.path),
        'Accept-Ranges': 'bytes',
        ETag: etag,
        'Last-Modified': modified,
        'Cache-Control': 'no-cache',
      };
      ctx.answered('static', hit.path);
      const h = ctx.request.headers;
      const inm = h.get('if-none-match');
      const ims = h.get('if-modified-since');
      if (inm !== null ? inm.split(',').some((t) => t.trim() === etag || t.trim() === '*' || t.trim() === etag.slice(2)) : ims !== null && Date.parse(ims) >= Date.parse(modified)) {
        return FastResponse.empty(304, headers);
      }
      const bytes = await hit.vfs.read(hit.path);
      const ifRange = h.get('if-range');
      const range = ifRange === null || ifRange === etag || ifRange === modified ? parseRange(h.get('range'), bytes.byteLength) : { kind: 'whole' as const };
      if (range.kind === 'unsatisfiable') return FastResponse.empty(416, { ...headers, 'Content-Range': `bytes */${bytes.byteLength}` });
      if (range.kind === 'part') {
        return FastResponse.bytes(bytes.subarray(range.start, range.end + 1), 206, { ...headers, 'Content-Range': `bytes ${range.start}-${range.end}/${bytes.byteLength}` }, head);
      }
      return FastResponse.bytes(bytes, 200, headers, head);
    },
    async close() {
      await Promise.all(owned.map((v) => v.close?.()));
    },
  };
}
