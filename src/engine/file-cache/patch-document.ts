/**
 * Applying PATCH documents to a fresh copy of the stored JSON (the cached value is never touched):
 *  - merge patch (RFC 7396, merge-patch.ts) for application/json and application/merge-patch+json;
 *  - JSON Patch (RFC 6902, rfc6902) for application/json-patch+json.
 * Every operation's result is checked (rfc6902 keeps going after a failed one); any failure
 * leaves the file untouched:
 *  - 422 Unprocessable Entity: the patch document itself is invalid (not an array, unknown op,
 *    missing/invalid path or value);
 *  - 409 Conflict: the patch is valid but cannot apply to the current document (a failed `test`,
 *    a path that does not exist).
 * Forbidden keys (`__proto__`, `constructor`, `prototype`) are refused with 400 anywhere: in
 * values, in merge-patch keys and in JSON Pointer segments of `path`/`from`.
 */
// Only `apply`: the package's index also pulls in `generate` (+ fast-deep-equal) and `merge`.
import { applyMergePatch } from './merge-patch.js';
import type { Operation } from 'rfc6902';
import { HttpError } from '../../core/errors.js';
import { assertNoForbiddenKeys, FORBIDDEN_KEYS } from '../../core/json-safety.js';

export type PatchKind = 'merge' | 'json-patch';

/**
 * rfc6902 is loaded on the first JSON Patch (most apps only ever send merge patches): in a
 * browser bundle it becomes its own chunk, fetched only when needed.
 */
let rfc6902: typeof import('rfc6902') | undefined;

/**
 * Makes `applyPatchDocument` ready for `kind`: a promise while rfc6902 loads (first JSON Patch
 * only), else `undefined`, so callers stay synchronous once it is there.
 */
export function preparePatch(kind: PatchKind): Promise<void> | undefined {
  if (kind !== 'json-patch' || rfc6902) return undefined;
  return import('rfc6902').then((m) => {
    rfc6902 = m;
  });
}

/** The patch kind for a media type (already lower-cased, without parameters), or undefined. */
export function patchKindFor(type: string): PatchKind | undefined {
  if (type === 'application/json' || type === 'application/merge-patch+json') return 'merge';
  if (type === 'application/json-patch+json') return 'json-patch';
  return undefined;
}

const OPS = new Set(['add', 'remove', 'replace', 'move', 'copy', 'test']);

function checkPointer(pointer: unknown, at: string): void {
  if (typeof pointer !== 'string' || (pointer !== '' && !pointer.startsWith('/'))) {
    throw new HttpError(422, `Invalid JSON Patch: ${at} must be a JSON Pointer string`);
  }
  for (const raw of pointer.split('/')) {
    const seg = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (FORBIDDEN_KEYS.has(seg)) throw new HttpError(400, `Forbidden key "${seg}" in JSON Patch ${at}`);
  }
}

function validateJsonPatch(patch: unknown): Operation[] {
  if (!Array.isArray(patch)) throw new HttpError(422, 'Invalid JSON Patch: the document must be an array of operations');
  patch.forEach((op, i) => {
    if (op === null || typeof op !== 'object' || Array.isArray(op)) throw new HttpError(422, `Invalid JSON Patch: operation ${i} must be an object`);
    const o = op as Record<string, unknown>;
    if (typeof o.op !== 'string' || !OPS.has(o.op)) throw new HttpError(422, `Invalid JSON Patch: operation ${i} has an unknown op ${JSON.stringify(o.op)}`);
    checkPointer(o.path, `operation ${i} "path"`);
    if (o.op === 'move' || o.op === 'copy') checkPointer(o.from, `operation ${i} "from"`);
    if ((o.op === 'add' || o.op === 'replace' || o.op === 'test') && !('value' in o)) {
      throw new HttpError(422, `Invalid JSON Patch: operation ${i} (${o.op}) needs a "value"`);
    }
  });
  assertNoForbiddenKeys(patch, 'JSON Patch');
  return patch as Operation[];
}

/** Validates a patch document before anything is read (400/422 early). */
export function validatePatch(kind: PatchKind, patch: unknown): void {
  if (kind === 'json-patch') validateJsonPatch(patch);
  else assertNoForbiddenKeys(patch, 'merge patch');
}

/** A library's failure as a client may read it: never an engine internal such as a stack overflow. */
function reason(err: unknown): string {
  if (err instanceof RangeError) return 'the document is nested too deeply';
  return (err as Error)?.message ?? String(err);
}

/**
 * Applies a validated patch to `doc` (a fresh copy: it may be mutated) and returns the result.
 * JSON Patch needs `preparePatch('json-patch')` to have resolved first.
 */
export function applyPatchDocument(kind: PatchKind, doc: unknown, patch: unknown): unknown {
  if (kind === 'merge') {
    try {
      return applyMergePatch(doc, patch);
    } catch (err) {
      throw new HttpError(422, `Merge patch cannot be applied: ${reason(err)}`);
    }
  }
  if (!rfc6902) throw new Error('preparePatch("json-patch") must resolve before a JSON Patch is applied');
  const { applyPatch } = rfc6902;
  const ops = patch as Operation[];
  // rfc6902 replaces the root through a wrapper; keep our own reference to the result.
  const box = { root: doc };
  const boxed = ops.map((op) => {
    const o = { ...op } as Operation & { from?: string };
    o.path = `/root${op.path}`;
    if (o.from !== undefined) o.from = `/root${o.from}`;
    return o;
  });
  let results;
  try {
    results = applyPatch(box, boxed);
  } catch (err) {
    throw new HttpError(422, `JSON Patch cannot be applied: ${reason(err)}`);
  }
  results.forEach((r, i) => {
    if (r === null) return;
    const op = ops[i]!;
    const reason = r.name === 'TestError'
      ? `test failed at "${op.path}" (expected ${JSON.stringify((op as { value?: unknown }).value)})`
      : r.name === 'MissingError' ? `path "${(r as { path?: string }).path?.replace(/^\/root/, '') ?? op.path}" does not exist` : r.message;
    throw new HttpError(409, `JSON Patch operation ${i} (${op.op}) failed: ${reason}`, { details: { operation: i } });
  });
  // `remove` of "" leaves no document; a file cannot hold nothing (DELETE removes files).
  if (box.root === undefined) throw new HttpError(409, 'JSON Patch would remove the whole document; use DELETE to remove the resource');
  return box.root;
}
