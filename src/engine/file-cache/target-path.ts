/**
 * Where a new file goes: the request path, with an extension when it has none (`.json` for JSON
 * bodies; for uploads the part's type, else the part's file name). A path ending with `/` (or
 * the prefix itself) names `index.json` for JSON, or the uploaded file's own name.
 */
import { HttpError } from '../../core/errors.js';
import { extensionFor } from '../../core/media-type.js';
import { baseName, isSafeSegment, joinSafe } from '../../vfs/path.js';

export function hasExtension(rel: string): boolean {
  const base = baseName(rel);
  const dot = base.lastIndexOf('.');
  return dot > 0 && dot < base.length - 1;
}

function extOfName(name: string): string | undefined {
  const dot = name.lastIndexOf('.');
  return dot > 0 && dot < name.length - 1 ? name.slice(dot + 1) : undefined;
}

/** Relative path for a JSON document created at `rel`. */
export function jsonTarget(rel: string, trailingSlash: boolean): string {
  if (rel === '' || trailingSlash) return joinSafe(rel, 'index.json');
  return rel.toLowerCase().endsWith('.json') ? rel : `${rel}.json`;
}

/** Relative path for an uploaded file (or raw body of `type`) created at `rel`. */
export function fileTarget(rel: string, trailingSlash: boolean, type: string, filename: string | undefined): string {
  if (rel === '' || trailingSlash) {
    const name = filename ? baseName(filename.replace(/\\/g, '/')) : '';
    if (!isSafeSegment(name)) {
      throw new HttpError(400, 'A file name is required to store an upload under a folder path');
    }
    return joinSafe(rel, name);
  }
  if (hasExtension(rel)) return rel;
  const ext = extensionFor(type) ?? (filename ? extOfName(filename) : undefined);
  return ext ? `${rel}.${ext}` : rel;
}
