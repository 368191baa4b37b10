/**
 * The current sources compiled to JavaScript (tsc, about a second), for tests that run the code in
 * another process: a collector to kill (collector-process.ts), a disk driver running as another
 * user, a writer killed mid-write. Output goes to `test-artifacts/<name>-dist` (one folder per
 * test file, so files running in parallel never share one; inside the repo, so `"type": "module"`
 * and node_modules resolve as for dist/), readable by every user.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

const repo = resolve(import.meta.dirname, '..', '..');

function chmodTree(dir: string): void {
  chmodSync(dir, 0o755);
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.isDirectory()) chmodTree(join(dir, e.name));
    else chmodSync(join(dir, e.name), 0o644);
  }
}

/** Compiles src/ into test-artifacts/<name>-dist and returns that folder (`<dir>/vfs/disk.js` …). */
export function compileSources(name: string): string {
  const out = join(repo, 'test-artifacts', `${name}-dist`);
  mkdirSync(out, { recursive: true });
  const tsc = join(repo, 'node_modules', 'typescript', 'bin', 'tsc');
  const r = spawnSync(process.execPath, [tsc, '-p', join(repo, 'tsconfig.build.json'), '--outDir', out, '--declaration', 'false', '--sourceMap', 'false'], { cwd: repo, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`tsc failed: ${r.stdout}${r.stderr}`);
  chmodTree(out);
  return out;
}
