/**
 * diskFs.watch (disk-watch.ts): reports for outside changes, a final report when the folder goes
 * away, nothing after stop/close, null where it cannot watch; diskFs.watchFolder: reports for
 * any entry of the folder.
 */
import { watch as watchFolder } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { diskFs } from '../../src/vfs/disk.js';
import { makeTempDir, removeTempDirs } from '../helpers/temp-dir.js';

afterAll(removeTempDirs);

/**
 * Collects reports; `next()` resolves with the next one, `until(test)` once `test(seen)` holds.
 * No timers: a report that never comes fails the test by its timeout.
 */
function recorder() {
  const seen: boolean[] = [];
  const waiting = new Set<() => void>();
  const report = (ended: boolean) => {
    seen.push(ended);
    for (const w of [...waiting]) w();
  };
  const until = (test: (seen: boolean[]) => boolean) =>
    new Promise<void>((resolve) => {
      const check = () => {
        if (!test(seen)) return;
        waiting.delete(check);
        resolve();
      };
      waiting.add(check);
      check();
    });
  const next = async () => {
    const start = seen.length;
    await until((s) => s.length > start);
    return seen[start]!;
  };
  return { seen, report, next, until };
}

/**
 * Negative checks without waiting a while: a change to a sentinel file in the same folder is
 * reported after every event that came before it (one inotify queue per process, read in order),
 * so once its report is in, a report for an earlier change would have been seen.
 */
function sentinel(dir: string, watchFile: (report: (ended: boolean) => void) => unknown) {
  const r = recorder();
  watchFile(r.report);
  let n = 0;
  return async () => {
    const next = r.next();
    await writeFile(join(dir, 'sub/sentinel'), String(++n));
    await next;
  };
}

/** A sentinel watched with a plain fs.watch on the folder (for after the driver's watchers are closed). */
function rawSentinel(dir: string) {
  let wake: (() => void) | undefined;
  const w = watchFolder(join(dir, 'sub'), (_event, name) => {
    if (name === 'sentinel') wake?.();
  });
  let n = 0;
  return {
    flush: async () => {
      const seen = new Promise<void>((resolve) => (wake = resolve));
      await writeFile(join(dir, 'sub/sentinel'), String(++n));
      await seen;
    },
    close: () => w.close(),
  };
}

async function setup() {
  const dir = await makeTempDir();
  await mkdir(join(dir, 'sub'));
  await writeFile(join(dir, 'sub/a.json'), '1');
  await writeFile(join(dir, 'sub/b.json'), '1');
  await writeFile(join(dir, 'sub/sentinel'), '0');
  return { dir, fs: diskFs(dir) };
}

describe('diskFs.watch', () => {
  it('reports an outside edit, replace-by-rename and delete of the watched file', async () => {
    const { dir, fs } = await setup();
    const r = recorder();
    expect(fs.watch!('sub/a.json', r.report)).toBeTypeOf('function');
    const drain = sentinel(dir, (report) => fs.watch!('sub/sentinel', report));
    let next = r.next();
    await writeFile(join(dir, 'sub/a.json'), '22');
    expect(await next).toBe(false);
    await drain(); // every report of that write is in: the next one is the rename's
    next = r.next();
    await writeFile(join(dir, 'sub/tmp'), '333');
    await rename(join(dir, 'sub/tmp'), join(dir, 'sub/a.json'));
    expect(await next).toBe(false);
    await drain();
    next = r.next();
    await rm(join(dir, 'sub/a.json'));
    expect(await next).toBe(false);
  });

  it('does not report changes to other files of the folder', async () => {
    const { dir, fs } = await setup();
    const r = recorder();
    fs.watch!('sub/a.json', r.report);
    const drain = sentinel(dir, (report) => fs.watch!('sub/sentinel', report));
    await writeFile(join(dir, 'sub/b.json'), '22');
    await writeFile(join(dir, 'sub/c.json'), '22');
    await drain();
    expect(r.seen).toEqual([]);
  });

  it('the folder removed: a final report (ended) for every watched file of it', async () => {
    const { dir, fs } = await setup();
    const a = recorder();
    const b = recorder();
    fs.watch!('sub/a.json', a.report);
    fs.watch!('sub/b.json', b.report);
    await rm(join(dir, 'sub'), { recursive: true });
    await Promise.all([a.until((s) => s.includes(true)), b.until((s) => s.includes(true))]);
    expect(a.seen.at(-1)).toBe(true);
    expect(b.seen.at(-1)).toBe(true);
    // a new folder at the same place can be watched again
    await mkdir(join(dir, 'sub'));
    await writeFile(join(dir, 'sub/a.json'), '1');
    const again = recorder();
    expect(fs.watch!('sub/a.json', again.report)).toBeTypeOf('function');
    const next = again.next();
    await writeFile(join(dir, 'sub/a.json'), '2');
    expect(await next).toBe(false);
  });

  it('no reports after stop() or close()', async () => {
    const { dir, fs } = await setup();
    const a = recorder();
    const b = recorder();
    const stop = fs.watch!('sub/a.json', a.report)!;
    fs.watch!('sub/b.json', b.report);
    stop();
    const drain = sentinel(dir, (report) => fs.watch!('sub/sentinel', report));
    await writeFile(join(dir, 'sub/a.json'), '2');
    await drain();
    expect(a.seen).toEqual([]);
    await fs.close!();
    const raw = rawSentinel(dir);
    try {
      await writeFile(join(dir, 'sub/b.json'), '2');
      await raw.flush();
    } finally {
      raw.close();
    }
    expect(b.seen).toEqual([]);
    expect(fs.watch!('sub/b.json', b.report)).toBeNull();
  });

  it('null for a file in a folder that does not exist', async () => {
    const { fs } = await setup();
    expect(fs.watch!('nowhere/a.json', () => {})).toBeNull();
  });
});

describe('diskFs.watchFolder', () => {
  it('reports an entry added, changed or removed; the folder removed ends the watch; stop() stops it', async () => {
    const { dir, fs } = await setup();
    const r = recorder();
    const stop = fs.watchFolder!('sub', r.report);
    expect(stop).toBeTypeOf('function');
    let next = r.next();
    await writeFile(join(dir, 'sub/new.txt'), 'x');
    expect(await next).toBe(false);
    next = r.next();
    await rm(join(dir, 'sub/a.json'));
    expect(await next).toBe(false);
    // the root folder too ('')
    const root = recorder();
    expect(fs.watchFolder!('', root.report)).toBeTypeOf('function');
    next = root.next();
    await writeFile(join(dir, 'top.json'), '1');
    expect(await next).toBe(false);
    await rm(join(dir, 'sub'), { recursive: true });
    await r.until((s) => s.includes(true));
    stop!(); // after the end: harmless
    expect(fs.watchFolder!('sub', recorder().report)).toBeNull(); // gone: cannot be watched
  });

  it("never reports the driver's temp files: a write through it reports its target's name only", async () => {
    const { fs } = await setup();
    const names: string[] = [];
    let seen: () => void = () => {};
    const target = new Promise<void>((resolve) => (seen = resolve));
    fs.watchFolder!('sub', (_ended, name) => {
      names.push(name ?? '');
      if (name === 'posted.json') seen();
    });
    await fs.write('sub/posted.json', '{"id":1}'); // temp file created, written, renamed onto the name
    await target; // inotify reports in order: the temp file's events came before the target's
    expect(names.filter((n) => n.startsWith('.mockyard-tmp-'))).toEqual([]);
    expect(names).toContain('posted.json');
  });
});
