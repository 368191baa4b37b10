/**
 * `mockyard init-worker <publicDir>`: writes the `mockServiceWorker.js` of the msw version that
 * mockyard bundles into the folder the dev server serves at `/`. `startWorker` (mockyard/sw)
 * refuses to start with a missing or stale script and names this command.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';

export const WORKER_FILE_NAME = 'mockServiceWorker.js';

/** The worker script shipped with the bundled msw. */
export async function workerScript(): Promise<string> {
  const require = createRequire(import.meta.url);
  return readFile(require.resolve('msw/mockServiceWorker.js'), 'utf8');
}

/**
 * Writes the worker script into `publicDir` (created when missing). Resolves the written path and
 * whether the file changed (false when it was already up to date).
 */
export async function initWorker(publicDir: string): Promise<{ path: string; changed: boolean }> {
  const dir = resolve(publicDir);
  const path = join(dir, WORKER_FILE_NAME);
  const script = await workerScript();
  const current = await readFile(path, 'utf8').catch(() => null);
  if (current === script) return { path, changed: false };
  await mkdir(dir, { recursive: true });
  await writeFile(path, script);
  return { path, changed: true };
}
