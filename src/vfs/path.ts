/**
 * Path safety: the one module that turns outside input into a path under a root.
 *
 * Two doors, one rule: whatever arrives (a URL path, a path given to a driver), the result is a
 * `/`-joined list of plain segments with no `..`, no `\`, no NUL, no drive letter: it cannot
 * name anything outside the root. URL input is refused with a 400; driver input with EINVAL.
 */
import { HttpError } from '../core/errors.js';
import { VfsError } from './types.js';

const UNSAFE_SEGMENT = /[\\/\0]|^[A-Za-z]:$/;

/**
 * Normalises a driver path: drops empty and `.` segments, accepts a leading `/`; rejects `..`,
 * backslashes, NUL and drive letters (`C:`) with `VfsError('EINVAL')`.
 */
export function normalizeVfsPath(path: string): string {
  if (typeof path !== 'string') throw new VfsError('EINVAL', String(path), 'Path must be a string');
  // Fast path: already normal (no empty, dot or unsafe segments).
  if (path !== '' && !/(^|\/)\.{1,2}(\/|$)|\/\/|^\/|\/$|[\\\0]|(^|\/)[A-Za-z]:(\/|$)/.test(path)) return path;
  const out: string[] = [];
  for (const seg of path.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..' || UNSAFE_SEGMENT.test(seg)) throw new VfsError('EINVAL', path, `Unsafe path: ${JSON.stringify(path)}`);
    out.push(seg);
  }
  return out.join('/');
}

export interface RequestPath {
  /** Decoded, normalised path under the root ('' for the root itself). */
  path: string;
  /** The URL path ended with `/` (the lookup then tries `index.json`). */
  trailingSlash: boolean;
}

/**
 * Turns the part of a URL path below an endpoint prefix (`/users/1`, still percent-encoded) into
 * a safe relative path. Each segment is percent-decoded once; a segment that decodes to `..` or
 * `.`, or contains `/`, `\` or NUL, or is malformed, is a 400. (The URL parser has already
 * resolved literal and `%2e` dot segments, so `..` here means an encoding trick.) A segment that
 * a second decode would make unsafe (double encoding, `..%252f`) is a 400 too.
 */
export function requestPathToVfs(urlPath: string): RequestPath {
  const trailingSlash = urlPath.endsWith('/');
  const out: string[] = [];
  for (const raw of urlPath.split('/')) {
    if (raw === '') continue;
    let seg = raw;
    if (raw.includes('%')) {
      try {
        seg = decodeURIComponent(raw);
      } catch {
        throw new HttpError(400, `Malformed percent-encoding in path segment "${raw}"`);
      }
    }
    if (seg === '.') continue;
    if (seg === '..' || UNSAFE_SEGMENT.test(seg) || (seg.includes('%') && unsafeWhenDecodedAgain(seg))) {
      throw new HttpError(400, `Unsafe path segment "${raw}"`);
    }
    out.push(seg);
  }
  return { path: out.join('/'), trailingSlash };
}

/**
 * Double encoding (`..%252f` → `..%2f`): a name that one more decode, by any layer that decodes
 * again (a proxy, a static server, a script walking the folder), would turn into a traversal is
 * refused rather than stored. A `%` that does not start an escape (`100%.json`) is a plain name.
 */
function unsafeWhenDecodedAgain(seg: string): boolean {
  let again: string;
  try {
    again = decodeURIComponent(seg);
  } catch {
    return false;
  }
  return again === '.' || again === '..' || UNSAFE_SEGMENT.test(again);
}

/** Whether `name` can be one path segment as given (file names from uploads): not empty, `.`, `..`, no `/`, `\`, NUL or drive letter. */
export function isSafeSegment(name: string): boolean {
  return name !== '' && name !== '.' && name !== '..' && !UNSAFE_SEGMENT.test(name);
}

/** Joins two already-normalised relative paths, either of which may be `''` (no re-check: hot path). */
export function joinSafe(dir: string, name: string): string {
  return dir ? (name ? `${dir}/${name}` : dir) : name;
}

/** Joins normalised relative paths (`joinVfsPath('users', '1.json')`). */
export function joinVfsPath(...parts: string[]): string {
  return normalizeVfsPath(parts.filter(Boolean).join('/'));
}

/** Parent directory of a normalised path ('' for top-level entries). */
export function parentOf(path: string): string {
  const i = path.lastIndexOf('/');
  return i === -1 ? '' : path.slice(0, i);
}

/** Last segment of a normalised path. */
export function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}
