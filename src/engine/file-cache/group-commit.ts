/**
 * Group commit, the one mechanism of file mode's PATCH (patch-batch.ts) and the collection
 * store's writes (store/writes.ts): the requests for one file that queue up behind each other
 * run as ONE task of the file's queue, in arrival order, and are stored with one write. A group
 * takes newcomers until its task starts (or, for PATCH, until another write closes it). `run`
 * gives each member's outcome (a failure fails that member alone); if it throws, all fail with it.
 */
import type { FsEnv } from './fs-call.js';

export type Outcome<R> = { ok: R } | { error: unknown };
interface Member<I> {
  readonly input: I;
  resolve(r: unknown): void;
  reject(err: unknown): void;
}
/** The open groups of one kind of write: per engine's files, per file path. */
export type OpenGroups<I> = WeakMap<FsEnv, Map<string, Member<I>[]>>;

/** Joins `input` to the open group of `path` (a new one is handed to `schedule`); resolves with its own outcome. */
export function joinGroup<I, R>(groups: OpenGroups<I>, env: FsEnv, path: string, input: I, schedule: (task: () => Promise<void>) => void, run: (inputs: I[]) => Promise<Outcome<R>[]>): Promise<R> {
  const open = groups.get(env) ?? new Map<string, Member<I>[]>();
  groups.set(env, open);
  return new Promise<R>((resolve, reject) => {
    let group = open.get(path);
    if (!group) {
      const g: Member<I>[] = (group = []);
      open.set(path, g);
      schedule(async () => {
        if (open.get(path) === g) open.delete(path);
        try {
          const outcomes = await run(g.map((m) => m.input));
          g.forEach((m, i) => {
            const o = outcomes[i]!;
            if ('ok' in o) m.resolve(o.ok);
            else m.reject(o.error);
          });
        } catch (err) {
          for (const m of g) m.reject(err);
        }
      });
    }
    group.push({ input, resolve: resolve as (r: unknown) => void, reject });
  });
}
