/**
 * Writes to a collection (item PUT/PATCH/DELETE, POST append) go through the collection file's
 * queue, grouped: the mutations queued behind each other apply in arrival order to one copy of
 * the array and are stored with one write (`FileCache.writeValue`: on a db.json, the parsed value
 * goes down as is and the file is rewritten later, coalesced). Each request gets its own answer;
 * a mutation that throws (404, 409, 400) fails alone, before it changed anything.
 *
 * Order with the other writes of file mode is kept: the batch runs as one task of the file's
 * queue (`KeyedQueue`), after everything queued before it, and it closes any open file-mode
 * PATCH batch (`runExclusive`).
 */
import { HttpError } from '../../core/errors.js';
import { entryIndent } from '../fs/file-cache.js';
import type { FsEnv } from '../fs/fs-call.js';
import { runExclusive } from '../fs/patch-batch.js';
import { carryIndex, indexOf, type IdIndex } from './item-id.js';

export interface MutationScope {
  /** The working copy of the collection (replace items, never mutate them). */
  readonly items: unknown[];
  readonly ids: IdIndex;
  /** Marks the copy as changed; `moved` when positions shifted (a removal). */
  changed(moved?: boolean): void;
}

/** Runs against the working copy; returns the request's answer or throws an HttpError. */
export type Mutation = (scope: MutationScope) => Response;

interface Pending {
  mutate: Mutation;
  resolve(r: Response): void;
  reject(err: unknown): void;
}

const open = new WeakMap<FsEnv, Map<string, Pending[]>>();

export function enqueueMutation(env: FsEnv, path: string, idField: string, mutate: Mutation): Promise<Response> {
  let batches = open.get(env);
  if (!batches) open.set(env, (batches = new Map()));
  return new Promise<Response>((resolve, reject) => {
    let batch = batches!.get(path);
    if (!batch) {
      const b: Pending[] = [];
      batch = b;
      batches!.set(path, b);
      void runExclusive(env, path, () => flush(env, batches!, path, idField, b));
    }
    batch.push({ mutate, resolve, reject });
  });
}

async function flush(env: FsEnv, batches: Map<string, Pending[]>, path: string, idField: string, batch: Pending[]): Promise<void> {
  if (batches.get(path) === batch) batches.delete(path);
  try {
    const entry = await env.cache.entry(path);
    if (entry === null || entry.array === undefined) throw new HttpError(404, 'Resource to update not found');
    const before = entry.array;
    const ids = indexOf(before, idField);
    let items: unknown[] | undefined;
    let changed = false;
    let moved = false;
    const results: Array<{ ok: Response } | { error: unknown }> = [];
    for (const p of batch) {
      items ??= before.slice();
      const scope: MutationScope = {
        items,
        ids,
        changed(m = false) {
          changed = true;
          if (m) {
            moved = true;
            ids.invalidate();
          }
        },
      };
      try {
        results.push({ ok: p.mutate(scope) });
      } catch (error) {
        results.push({ error });
      }
    }
    if (changed && items) {
      if (!moved) carryIndex(before, items, ids);
      await env.cache.writeValue(path, items, entryIndent(entry), true);
    }
    batch.forEach((p, i) => {
      const r = results[i]!;
      if ('ok' in r) p.resolve(r.ok);
      else p.reject(r.error);
    });
  } catch (err) {
    for (const p of batch) p.reject(err);
  }
}
