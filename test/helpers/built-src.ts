/**
 * The current sources compiled to JavaScript (tsc, about a second), for tests that need the code
 * in another process: a disk driver running as another user, a writer killed mid-write. Built
 * once per test file into a temp dir readable by every user, with `"type": "module"`.
 */
import { spawnSync } from 'node:child_process';
import { chmod, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const repo = resolve(import.meta.dirname, '..', '..');
let built: Promise<string> | undefined;

async function chmodTree(dir: string): Promise<void> {
  await chmod(dir, 0o755);
  for (const e of await readdir(dir, { withFileTypes: true })) {
    if (e.isDirectory()) await chmodTree(join(dir, e.name));
    else await chmod(join(dir, e.name), 0o644);
  }
}

/** The folder holding the compiled `src` tree (`<dir>/vfs/disk.js` …). */
export function builtSources(): Promise<string> {
  return (built ??= (async () => {
    const out = await mkdtemp(join(tmpdir(), 'mockyard-built-'));
    const tsc = join(repo, 'node_modules', 'typescript', 'bin', 'tsc');
    const r = spawnSync(process.execPath, [tsc, '-p', join(repo, 'tsconfig.build.json'), '--outDir', out, '--declaration', 'false', '--sourceMap', 'false'], { cwd: repo, encoding: 'utf8' });
    if (r.status !== 0 && !(await readdir(out)).includes('vfs')) throw new Error(`tsc failed: ${r.stdout}${r.stderr}`);
    await writeFile(join(out, 'package.json'), '{"type":"module"}\n');
    await chmodTree(out);
    return out;
  })());
}

/** Removes the build (afterAll of the files that used it). */
export async function removeBuiltSources(): Promise<void> {
  const pending = built;
  built = undefined;
  const dir = await pending?.catch(() => undefined);
  if (dir) await rm(dir, { recursive: true, force: true });
}
