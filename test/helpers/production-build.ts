/**
 * Production builds of a Vite root (the playground, an example app) and the strings that only
 * msw, the service-worker host or the engines carry: `found(output)` lists those present.
 */
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { build } from 'vite';
import { mockyardAliases } from '../../playground/vite-aliases.mjs';
import { makeTempDir } from './temp-dir.js';

export const MARKERS: Record<string, string[]> = {
  msw: ['INTEGRITY_CHECK_REQUEST', 'MOCK_ACTIVATE', 'mockServiceWorker'],
  'worker host': ['init-worker', 'service workers are not available here'],
  engines: ['noHandledRestFsRequestsAction', 'File System API mode', 'mockyard-vfs:'],
};

export const ALL_MARKERS = Object.entries(MARKERS).flatMap(([what, list]) => list.map((m) => `${what}: ${m}`));

export function found(output: string): string[] {
  return Object.entries(MARKERS).flatMap(([what, list]) => list.filter((m) => output.includes(m)).map((m) => `${what}: ${m}`));
}

/** `vite build` of `root` (NODE_ENV=production, as the CLI sets it); resolves all emitted JS and HTML. */
export async function productionBuild(root: string, define: Record<string, string> = {}): Promise<string> {
  const outDir = await makeTempDir();
  // Vite derives import.meta.env.DEV from NODE_ENV, which vitest sets to "test".
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({
      root,
      configFile: false,
      logLevel: 'silent',
      mode: 'production',
      publicDir: false,
      resolve: { alias: mockyardAliases('src') },
      define,
      build: { outDir, emptyOutDir: true, minify: false },
    });
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
  const files = (await readdir(outDir, { recursive: true })).filter((f) => f.endsWith('.js') || f.endsWith('.html'));
  const texts = await Promise.all(files.map((f) => readFile(join(outDir, f), 'utf8')));
  await rm(outDir, { recursive: true, force: true });
  return texts.join('\n');
}
