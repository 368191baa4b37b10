/**
 * The CLI's output lines, written once per turn of the event loop.
 *
 * Under load the server answers several requests per turn and logs one line for each; writing
 * each line at once costs one `write(2)` per request (stdout is synchronous for files and pipes
 * on Linux). Lines are queued and written together on `setImmediate`, in order. Everything that
 * could reorder or lose them flushes first: a line for the other stream (`before`), and the
 * process exiting (`process.exit` runs 'exit' listeners synchronously).
 */
import type { Writable } from 'node:stream';

export interface LineBatch {
  /** Queues `line` (a newline is added). */
  write(line: string): void;
  /** Writes what is queued now. */
  flush(): void;
}

export function lineBatch(stream: Pick<Writable, 'write'>): LineBatch {
  let queued = '';
  let scheduled = false;
  const flush = (): void => {
    if (queued === '') return;
    const text = queued;
    queued = '';
    stream.write(text);
  };
  const onTurn = (): void => {
    scheduled = false;
    flush();
  };
  process.on('exit', flush);
  return {
    write(line) {
      queued += `${line}\n`;
      if (!scheduled) {
        scheduled = true;
        setImmediate(onTurn);
      }
    },
    flush,
  };
}
