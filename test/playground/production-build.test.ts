/**
 * Browser mode never ships to production: the playground loads its in-page backend with a dynamic
 * import behind `import.meta.env.DEV`, so a production `vite build` contains no mockyard engine,
 * no msw and no worker glue. The same build with VITE_MOCKYARD_IN_PAGE=on (what the e2e suite
 * builds) does contain them: the markers below are found when the code is there.
 */
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { afterAll, describe, expect, it } from 'vitest';
import { mockyardAliases } from '../../playground/vite-aliases.mjs';
import { makeTempDir, removeTempDirs } from '../helpers/temp-dir.js';

const root = fileURLToPath(new URL('../../playground/', import.meta.url));

/** Strings that only msw, the service-worker host or the engines carry. */
const MARKERS = {
  msw: ['INTEGRITY_CHECK_REQUEST', 'MOCK_ACTIVATE', 'mockServiceWorker'],
  'worker host': ['init-worker', 'service workers are not available here'],
  engines: ['noHandledRestFsRequestsAction', 'File System API mode', 'mockyard-vfs:'],
};

async function buildPlayground(inPage: boolean): Promise<string> {
  const outDir = await makeTempDir();
  // Vite derives import.meta.env.DEV from NODE_ENV, which vitest sets to "test": build as
  // `vite build` does, with NODE_ENV=production.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await viteBuild(outDir, inPage);
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
  const files = (await readdir(outDir, { recursive: true })).filter((f) => f.endsWith('.js') || f.endsWith('.html'));
  const texts = await Promise.all(files.map((f) => readFile(join(outDir, f), 'utf8')));
  await rm(outDir, { recursive: true, force: true });
  return texts.join('\n');
}

async function viteBuild(outDir: string, inPage: boolean): Promise<void> {
  await build({
    root,
    configFile: false,
    logLevel: 'silent',
    mode: 'production',
    publicDir: false,
    resolve: { alias: mockyardAliases('src') },
    define: inPage ? { 'import.meta.env.VITE_MOCKYARD_IN_PAGE': JSON.stringify('on') } : {},
    build: { outDir, emptyOutDir: true, minify: false },
  });
}

function found(output: string): string[] {
  return Object.entries(MARKERS).flatMap(([what, list]) => list.filter((m) => output.includes(m)).map((m) => `${what}: ${m}`));
}

afterAll(removeTempDirs);

describe('playground production build', () => {
  it('contains no mockyard engine, msw or worker code', async () => {
    const output = await buildPlayground(false);
    expect(output).toContain('team tasks'); // the app itself is there
    expect(found(output)).toEqual([]);
  }, 120_000);

  it('with the in-page flag the same build does contain them (the markers detect the code)', async () => {
    const output = await buildPlayground(true);
    expect(found(output)).toEqual(Object.entries(MARKERS).flatMap(([what, list]) => list.map((m) => `${what}: ${m}`)));
  }, 120_000);
});
