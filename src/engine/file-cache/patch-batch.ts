/**
 * Group commit for PATCH: patches to one file that queue up behind each other are applied in
 * arrival order to the document in memory and written once (one atomic Vfs.write for the whole
 * group). Each request still gets the document as it stood right after its own patch, and a
 * failing patch (409/422) fails alone: the others apply to the last good state.
 *
 * Ordering with other writes is kept (group-commit.ts): a batch accepts new patches only while it
 * is the last task queued for its file; any other write queued behind it closes it, so a PATCH
 * that arrives after a PUT always applies after that PUT.
 */
import { HttpError } from '../../core/errors.js';
import { textExceedsDepth, tooDeep } from '../../core/json-depth.js';
import type { FsEnv } from './fs-call.js';
import { detectLayout, serializeJson } from '../../core/json-layout.js';
import { joinGroup, type OpenGroups, type Outcome } from './group-commit.js';
import { MSG } from './messages.js';
import { applyPatchDocument, preparePatch, type PatchKind } from './patch-document.js';

interface Patch {
  kind: PatchKind;
  patch: unknown;
}

const decoder = new TextDecoder();
const batches: OpenGroups<Patch> = new WeakMap();

/** Runs a write task on `path` after everything queued for it (which closes any open group). */
export function runExclusive<T>(env: FsEnv, path: string, task: () => Promise<T>): Promise<T> {
  return env.queue.run(path, task);
}

/** Queues a validated patch for the JSON file at `path`; resolves with the bytes written for it. */
export function enqueuePatch(env: FsEnv, path: string, kind: PatchKind, patch: unknown): Promise<Uint8Array> {
  const loading = preparePatch(kind);
  if (loading) return loading.then(() => enqueuePatch(env, path, kind, patch));
  return joinGroup(batches, env, path, { kind, patch }, (group) => flush(env, path, group));
}

async function flush(env: FsEnv, path: string, batch: Patch[]): Promise<Outcome<Uint8Array>[]> {
  const entry = await env.cache.entry(path);
  if (entry === null) throw new HttpError(404, MSG.patchNotFound);
  const layout = detectLayout(entry.bytes);
  let current = entry.bytes;
  const maxDepth = env.maxJsonDepth;
  if (entry.problem === 'too-deep') throw tooDeep('The stored resource', maxDepth);
  let doc: unknown;
  try {
    doc = JSON.parse(decoder.decode(current));
  } catch {
    throw new HttpError(409, 'The stored resource is not valid JSON and cannot be patched');
  }
  const results: Outcome<Uint8Array>[] = [];
  let changed = false;
  for (const p of batch) {
    try {
      doc = applyPatchDocument(p.kind, doc, p.patch);
      const next = serializeJson(doc, layout);
      // Patches within the limit can still add up to a deeper document: refuse that one.
      if (textExceedsDepth(next, maxDepth)) throw tooDeep('The patched document', maxDepth);
      current = next;
      results.push({ ok: current });
      changed = true;
    } catch (error) {
      results.push({ error });
      // The failed patch may have touched the document: start again from the last good state.
      doc = JSON.parse(decoder.decode(current));
    }
  }
  if (changed) await env.cache.write(path, current, true, { value: doc });
  return results;
}
