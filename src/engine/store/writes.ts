/**
 * Writes to a collection (a JSON array file) go through the collection file's queue, grouped:
 * the mutations queued behind each other apply in arrival order to one copy of the array and are
 * stored with one write (`FileCache.writeValue`: on a db.json, the parsed value goes down as is
 * and the file is rewritten later, coalesced). Each caller gets its own result; a mutation that
 * throws (404, 409, 400) fails alone, before it changed anything.
 *
 * Order with the other writes of file mode is kept: the batch runs as one task of the file's
 * queue (`KeyedQueue`), after everything queued before it, and takes newcomers only while it is
 * the last task queued (group-commit.ts): a store write arriving after a queued PUT, DELETE or
 * PATCH of the file applies after it. Every committed batch is handed to the store's change feed
 * (change-feed.ts), which tells subscribers which items were created, updated or removed: REST
 * writes of the collections layer, GraphQL mutations and `req.app.store` calls all pass here.
 */
import { HttpError } from '../../core/errors.js';
import { entryLayout } from '../file-cache/file-cache.js';
import type { FsEnv } from '../file-cache/fs-call.js';
import { joinGroup, type OpenGroups, type Outcome } from '../file-cache/group-commit.js';
import { carryIndex, indexOf, type IdIndex } from './item-id.js';
import { feedOf } from './change-feed.js';

export interface MutationScope {
  /** The working copy of the collection (replace items, never mutate them). */
  readonly items: unknown[];
  readonly ids: IdIndex;
  /** Marks the copy as changed; `moved` when positions shifted (a removal). */
  changed(moved?: boolean): void;
}

/** Runs against the working copy; returns the caller's result or throws an HttpError. */
export type Mutation<T> = (scope: MutationScope) => T;

const open: OpenGroups<Mutation<unknown>> = new WeakMap();
/** Mutations per file queued or being stored (until their write has replaced the cached array). */
const unsettled = new WeakMap<FsEnv, Map<string, number>>();

export function enqueueMutation<T>(env: FsEnv, path: string, idField: string, mutate: Mutation<T>): Promise<T> {
  const result = joinGroup(open, env, path, mutate as Mutation<unknown>, (batch) => flush(env, path, idField, batch)) as Promise<T>;
  let counts = unsettled.get(env);
  if (!counts) unsettled.set(env, (counts = new Map()));
  counts.set(path, (counts.get(path) ?? 0) + 1);
  return result;
}

function settle(env: FsEnv, path: string, n: number): void {
  const counts = unsettled.get(env);
  const left = (counts?.get(path) ?? 0) - n;
  if (left > 0) counts!.set(path, left);
  else counts?.delete(path);
}

/** Whether mutations of `path` are queued and not yet stored (what the cached array does not show yet). */
export function mutationPending(env: FsEnv, path: string): boolean {
  return unsettled.get(env)?.has(path) === true;
}

async function flush(env: FsEnv, path: string, idField: string, batch: Mutation<unknown>[]): Promise<Outcome<unknown>[]> {
  try {
    const entry = await env.cache.entry(path);
    if (entry === null || entry.array === undefined) throw new HttpError(404, 'Resource to update not found');
    const before = entry.array;
    const ids = indexOf(before, idField);
    let items: unknown[] | undefined;
    let changed = false;
    let moved = false;
    const results: Outcome<unknown>[] = [];
    for (const mutate of batch) {
      if (items === undefined) {
        items = before.slice();
        ids.copied(before, items);
      }
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
        results.push({ ok: mutate(scope) });
      } catch (error) {
        results.push({ error });
      }
    }
    if (changed && items) {
      if (!moved) carryIndex(before, items, ids);
      await env.cache.writeValue(path, items, entryLayout(entry), true);
      feedOf(env)?.committed(path, before, items);
    }
    return results;
  } finally {
    settle(env, path, batch.length);
  }
}
