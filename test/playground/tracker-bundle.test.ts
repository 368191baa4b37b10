/**
 * `mockyard/tracker` brings the tracker client alone into a production bundle: a Vite production
 * build of a page that imports `createTrackerClient` from it emits the client (and its lazily loaded
 * WebSocket transport) only: no engine, msw or devtools code.
 */
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { build } from 'vite';
import { afterAll, describe, expect, it } from 'vitest';
import { mockyardAliases } from '../../playground/vite-aliases.mjs';
import { found } from '../helpers/production-build.js';
import { makeTempDir, removeTempDirs } from '../helpers/temp-dir.js';

afterAll(removeTempDirs);

const DEVTOOLS_MARKERS = ['mockyard-devtools', 'openDevtoolsOverlay', '/_mockyard/api'];

async function bundle(entry: string): Promise<{ chunks: string[]; text: string }> {
  const root = await makeTempDir();
  await writeFile(join(root, 'index.html'), '<!doctype html><html><body><script type="module" src="/main.js"></script></body></html>');
  await writeFile(join(root, 'main.js'), `import { createTrackerClient } from '${entry}';\nconst tracker = createTrackerClient({ endpoint: '/_tracker', appId: 'shop' });\ntracker.track('page_view', { path: location.pathname });\n`);
  const outDir = join(root, 'dist');
  await mkdir(outDir);
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({ root, configFile: false, logLevel: 'silent', mode: 'production', publicDir: false, resolve: { alias: mockyardAliases('src') }, build: { outDir, emptyOutDir: true, minify: false } });
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
  const chunks = (await readdir(outDir, { recursive: true })).filter((f) => f.endsWith('.js'));
  const text = (await Promise.all(chunks.map((f) => readFile(join(outDir, f), 'utf8')))).join('\n');
  return { chunks, text };
}

describe('a production build importing the tracker client', () => {
  it('from mockyard/tracker: the client only', async () => {
    const { chunks, text } = await bundle('mockyard/tracker');
    expect(text).toContain('page_view');
    expect(chunks.length).toBeLessThanOrEqual(2); // the app with the client, and its WebSocket transport
    expect(text.length).toBeLessThan(80_000);
    expect(DEVTOOLS_MARKERS.filter((m) => text.includes(m))).toEqual([]);
    expect(found(text)).toEqual([]);
  }, 120_000);
});
