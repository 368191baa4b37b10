/**
 * The CLI's watch on json-server's routes.json (`--routes`) and middleware files (`-m`): an edit
 * is read again and swapped into the running engine (`api.reload`: the rules and the chain at
 * once; a request in flight finishes on the old ones). Middleware modules are imported afresh
 * (json-server-flags.ts `loadMiddleware`: a new URL, CommonJS dropped from require's cache), so
 * the new code runs. A file that cannot be used (routes.json not JSON or not rules, a middleware
 * that throws on load or exports no function) changes nothing: the old rules or chain keep
 * serving, one error line names the file, and the next good save is taken.
 *
 * json-server 0.17.4 (measured) restarts its whole server on a routes.json change (in-flight
 * requests get an empty reply), exits on a routes.json that is not JSON, and never reloads a
 * middleware (Node's require cache); this keeps serving through all three.
 *
 * Folders are watched, not files: editors and `mv` replace a file (a rename), which a file watch
 * loses; events are coalesced (EDIT_SETTLE_MS) so a save in several writes is read once.
 */
import { watch, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { MockApi } from '../engine/create-mock-api.js';
import type { MiddlewareFunction } from '../engine/types.js';
import { loadMiddleware, readRoutes } from './json-server-flags.js';

const EDIT_SETTLE_MS = 60;

export interface JsonServerFiles {
  routes?: string;
  middlewares: readonly string[];
}

export interface JsonServerWatch {
  close(): void;
}

export function watchJsonServerFiles(api: MockApi, files: JsonServerFiles, log: { info(line: string): void; error(line: string): void }): JsonServerWatch {
  const watched = [...(files.routes !== undefined ? [files.routes] : []), ...files.middlewares];
  const watchers: FSWatcher[] = [];
  const pending = new Set<string>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<void> = Promise.resolve();
  let generation = 0;
  /** The chain as last loaded (a broken file keeps its previous function). */
  let chain: MiddlewareFunction[] | undefined;
  let closed = false;

  async function apply(changed: Set<string>): Promise<void> {
    const fresh = ++generation;
    const next: { routes?: Record<string, string>; middlewares?: MiddlewareFunction[] } = {};
    if (files.routes !== undefined && changed.has(files.routes)) {
      try {
        next.routes = readRoutes(files.routes);
      } catch (err) {
        log.error(`mockyard: ${files.routes}: ${(err as Error).message.replace(/^--routes \S+: /, '')} — keeping the previous rules (fix the file and save it again)`);
      }
    }
    const mw = files.middlewares.filter((f) => changed.has(f));
    if (mw.length > 0) {
      const list = [...(chain ?? api.options.jsonServerRules.current.middlewares)];
      let ok = false;
      for (const file of mw) {
        try {
          const fn = await loadMiddleware(file, fresh);
          files.middlewares.forEach((f, i) => {
            if (f === file) list[i] = fn;
          });
          ok = true;
        } catch (err) {
          log.error(`mockyard: ${(err as Error).message.replace(/^--middlewares /, '')} — keeping its previous version (fix the file and save it again)`);
        }
      }
      if (ok) next.middlewares = list;
    }
    if (next.routes === undefined && next.middlewares === undefined) return;
    try {
      api.reload(next);
    } catch (err) {
      log.error(`${(err as Error).message} (${[...changed].map((f) => basename(f)).join(', ')}) — keeping the previous rules and middlewares`);
      return;
    }
    if (next.middlewares) chain = next.middlewares;
    const what = [...(next.routes ? [basename(files.routes!)] : []), ...(next.middlewares ? mw.map((f) => basename(f)) : [])];
    log.info(`mockyard: reloaded ${what.join(', ')}`);
  }

  function flush(): void {
    timer = undefined;
    const changed = new Set(pending);
    pending.clear();
    running = running.then(() => (closed ? undefined : apply(changed))).catch((err: unknown) => log.error(`mockyard: reloading: ${(err as Error)?.message ?? String(err)}`));
  }

  for (const dir of new Set(watched.map((f) => dirname(f)))) {
    try {
      const w = watch(dir, (_event, name) => {
        if (name === null) return;
        const file = watched.find((f) => dirname(f) === dir && basename(f) === String(name));
        if (file === undefined) return;
        pending.add(file);
        if (timer !== undefined) clearTimeout(timer);
        timer = setTimeout(flush, EDIT_SETTLE_MS);
      });
      w.on('error', (err) => log.error(`mockyard: watching ${dir}: ${err.message}`));
      w.unref();
      watchers.push(w);
    } catch (err) {
      log.error(`mockyard: cannot watch ${dir} (${(err as Error).message}): edits of routes.json and the middlewares there need a restart`);
    }
  }

  return {
    close() {
      closed = true;
      if (timer !== undefined) clearTimeout(timer);
      for (const w of watchers) w.close();
    },
  };
}
