/**
 * The CLI's output lines, written together a few milliseconds after the first one is queued.
 *
 * Under load the server answers many requests per millisecond and logs one line for each;
 * writing each line at once costs one `write(2)` per request (stdout is synchronous for files
 * and pipes on Linux), about as much CPU as answering a small request. Lines are queued and
 * written in order, in one write, `FLUSH_MS` after the first (unnoticeable on a terminal), or
 * at once past `MAX_QUEUED` characters. Everything that could reorder or lose them flushes
 * first: a line for the other stream (`flush()` before it), and the process exiting
 * (`process.exit` runs 'exit' listeners synchronously).
 */
import type { Writable } from 'node:stream';

const FLUSH_MS = 10;
const MAX_QUEUED = 64 * 1024;

export interface LineBatch {
  /** Queues `line` (a newline is added). */
  write(line: string): void;
  /** Writes what is queued now. */
  flush(): void;
}

/** `schedule(run)` runs `run` later (default: `FLUSH_MS` later). */
export function lineBatch(stream: Pick<Writable, 'write'>, schedule: (run: () => void) => void = (run) => setTimeout(run, FLUSH_MS)): LineBatch {
  let queued = '';
  let scheduled = false;
  const flush = (): void => {
    if (queued === '') return;
    const text = queued;
    queued = '';
    stream.write(text);
  };
  const onTimer = (): void => {
    scheduled = false;
    flush();
  };
  process.on('exit', flush);
  return {
    write(line) {
      queued += `${line}\n`;
      if (queued.length > MAX_QUEUED) flush();
      else if (!scheduled) {
        scheduled = true;
        schedule(onTimer);
      }
    },
    flush,
  };
}
