/**
 * A guard against one known crash of postgres.js 3.4.x (porsager/postgres issues 1066, 1154,
 * 1208): when a connection closes while a small write is scheduled, the driver's `nextWrite`
 * runs later on a null socket and throws from a timer, where no caller can catch it, so a database
 * restart under load takes the whole process down. While a pool we opened is alive, an
 * `uncaughtException` listener swallows exactly that error (logged once); the store also drops
 * its pool when the database becomes unreachable (store.ts), so no connection the bug left
 * unusable is used again. Any other uncaught exception ends the process as Node would, unless
 * other listeners are there to decide.
 */
import type { Logger } from '../../core/logger.js';

let holders = 0;
let warned = false;
let log: Logger | undefined;

function isNullSocketWrite(err: unknown): boolean {
  const e = err as { message?: unknown; stack?: unknown } | null;
  return err instanceof TypeError
    && typeof e?.message === 'string' && /reading 'write'|evaluating 'socket\.write'/.test(e.message)
    && typeof e.stack === 'string' && e.stack.includes('nextWrite') && /postgres[\\/](src|cjs)[\\/]/.test(e.stack);
}

function onUncaught(err: unknown): void {
  if (isNullSocketWrite(err)) {
    if (!warned) log?.warn('tracker: ignored a postgres.js write on a closed connection (a known driver bug when the database goes away); the pool is replaced');
    warned = true;
    return;
  }
  if (process.listenerCount('uncaughtException') > 1) return; // another listener decides
  process.removeListener('uncaughtException', onUncaught);
  process.stderr.write(`${(err as Error)?.stack ?? String(err)}\n`);
  process.exit(1);
}

/** Holds the guard while a pool is open; the returned function releases it. */
export function holdDriverGuard(logger: Logger): () => void {
  log = logger;
  if (holders++ === 0) process.on('uncaughtException', onUncaught);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    if (--holders === 0) process.removeListener('uncaughtException', onUncaught);
  };
}
