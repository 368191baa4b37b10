/**
 * diskFs.watch (disk-watch.ts): reports for outside changes, a final report when the folder goes
 * away, nothing after stop/close, null where it cannot watch.
 */
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { diskFs } from '../../src/vfs/disk.js';
import { makeTempDir, removeTempDirs } from '../helpers/temp-dir.js';

afterAll(removeTempDirs);

/** Collects reports; `next()` resolves with the next one (or 'none' after `ms`). */
function recorder() {
  const seen: boolean[] = [];
  let wake: (() => void) | undefined;
  const report = (ended: boolean) => {
    seen.push(ended);
    wake?.();
  };
  const next = (ms = 1000) =>
    new Promise<boolean | 'none'>((resolve) => {
      const start = seen.length;
      const t = setTimeout(() => resolve('none'), ms);
      wake = () => {
        if (seen.length > start) {
          clearTimeout(t);
          resolve(seen[start]!);
        }
      };
    });
  return { seen, report, next };
}

async function setup() {
  const dir = await makeTempDir();
  await mkdir(join(dir, 'sub'));
  await writeFile(join(dir, 'sub/a.json'), '1');
  await writeFile(join(dir, 'sub/b.json'), '1');
  return { dir, fs: diskFs(dir) };
}

describe('diskFs.watch', () => {
  it('reports an outside edit, replace-by-rename and delete of the watched file', async () => {
    const { dir, fs } = await setup();
    const r = recorder();
    expect(fs.watch!('sub/a.json', r.report)).toBeTypeOf('function');
    let next = r.next();
    await writeFile(join(dir, 'sub/a.json'), '22');
    expect(await next).toBe(false);
    await new Promise((res) => setTimeout(res, 20));
    next = r.next();
    await writeFile(join(dir, 'sub/tmp'), '333');
    await rename(join(dir, 'sub/tmp'), join(dir, 'sub/a.json'));
    expect(await next).toBe(false);
    await new Promise((res) => setTimeout(res, 20));
    next = r.next();
    await rm(join(dir, 'sub/a.json'));
    expect(await next).toBe(false);
  });

  it('does not report changes to other files of the folder', async () => {
    const { dir, fs } = await setup();
    const r = recorder();
    fs.watch!('sub/a.json', r.report);
    const next = r.next(150);
    await writeFile(join(dir, 'sub/b.json'), '22');
    await writeFile(join(dir, 'sub/c.json'), '22');
    expect(await next).toBe('none');
  });

  it('the folder removed: a final report (ended) for every watched file of it', async () => {
    const { dir, fs } = await setup();
    const a = recorder();
    const b = recorder();
    fs.watch!('sub/a.json', a.report);
    fs.watch!('sub/b.json', b.report);
    await rm(join(dir, 'sub'), { recursive: true });
    await new Promise((res) => setTimeout(res, 100));
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
    const na = a.next(150);
    await writeFile(join(dir, 'sub/a.json'), '2');
    expect(await na).toBe('none');
    await fs.close!();
    const nb = b.next(150);
    await writeFile(join(dir, 'sub/b.json'), '2');
    expect(await nb).toBe('none');
    expect(fs.watch!('sub/b.json', b.report)).toBeNull();
  });

  it('null for a file in a folder that does not exist', async () => {
    const { fs } = await setup();
    expect(fs.watch!('nowhere/a.json', () => {})).toBeNull();
  });
});
