/**
 * Group commit, the one mechanism of file mode's PATCH (patch-batch.ts) and the collection
 * store's writes (store/writes.ts): the requests for one file that queue up behind each other
 * run as ONE task of the file's queue, in arrival order, and are stored with one write. Each
 * member's outcome is its own (a failure fails that member alone); if `run` throws, all fail.
 *
 * One order per file for every writer: a group takes newcomers only while its task is the LAST
 * one queued for the file (`KeyedQueue.last`). Anything queued behind it (a PUT or DELETE, a group
 * of the other kind, a devtools edit through the same queue) closes it, so a write that arrives
 * after that one applies after it, never in a group queued before it. A group also closes when
 * its task starts.
 */
import type { FsEnv } from './fs-call.js';

export type Outcome<R> = { ok: R } | { error: unknown };
interface Member<I> {
  readonly input: I;
  resolve(r: unknown): void;
  reject(err: unknown): void;
}
interface Group<I> {
  readonly members: Member<I>[];
  /** The file queue's last task once this group's was queued: still last ⇒ still open. */
  tail: unknown;
}
/** The open groups of one kind of write: per engine's files, per file path. */
export type OpenGroups<I> = WeakMap<FsEnv, Map<string, Group<I>>>;

/** Joins `input` to the open group of `path` or queues a new one; resolves with its own outcome. */
export function joinGroup<I, R>(groups: OpenGroups<I>, env: FsEnv, path: string, input: I, run: (inputs: I[]) => Promise<Outcome<R>[]>): Promise<R> {
  const open = groups.get(env) ?? new Map<string, Group<I>>();
  groups.set(env, open);
  return new Promise<R>((resolve, reject) => {
    let group = open.get(path);
    if (group === undefined || env.queue.last(path) !== group.tail) {
      const g: Group<I> = (group = { members: [], tail: undefined });
      open.set(path, g);
      void env.queue.run(path, async () => {
        if (open.get(path) === g) open.delete(path);
        const members = g.members;
        try {
          const outcomes = await run(members.map((m) => m.input));
          members.forEach((m, i) => {
            const o = outcomes[i]!;
            if ('ok' in o) m.resolve(o.ok);
            else m.reject(o.error);
          });
        } catch (err) {
          for (const m of members) m.reject(err);
        }
      });
      g.tail = env.queue.last(path);
    }
    group.members.push({ input, resolve: resolve as (r: unknown) => void, reject });
  });
}
