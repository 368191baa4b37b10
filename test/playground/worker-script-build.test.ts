/**
 * docs/browser.md on the worker script in production builds, measured with a real `vite build`:
 * `public/mockServiceWorker.js` is copied into `dist/` like every file of `public/` (as with msw;
 * it does nothing until a page registers it), and the documented plugin leaves it out.
 */
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { build, type Plugin } from 'vite';
import { afterAll, expect, it } from 'vitest';
import { initWorker } from '../../src/node/init-worker.js';
import { makeTempDir, removeTempDirs } from '../helpers/temp-dir.js';

afterAll(removeTempDirs);

/** The plugin docs/browser.md shows. */
const noMockWorker: Plugin = {
  name: 'no-mock-worker-in-dist',
  apply: 'build',
  async writeBundle(options) {
    await rm(resolve(options.dir!, 'mockServiceWorker.js'), { force: true });
  },
};

async function viteBuild(plugins: Plugin[]): Promise<string> {
  const root = await makeTempDir();
  await mkdir(join(root, 'public'), { recursive: true });
  await initWorker(join(root, 'public'));
  await writeFile(join(root, 'public', 'robots.txt'), 'User-agent: *\n');
  await writeFile(join(root, 'index.html'), '<!doctype html><title>app</title><script type="module" src="/main.js"></script>');
  await writeFile(join(root, 'main.js'), 'document.title = "built";\n');
  await build({ root, configFile: false, logLevel: 'silent', plugins, build: { outDir: 'dist', emptyOutDir: true } });
  return join(root, 'dist');
}

it('vite build copies public/mockServiceWorker.js into dist/; the documented plugin leaves it out', async () => {
  const plain = await viteBuild([]);
  expect(existsSync(join(plain, 'mockServiceWorker.js'))).toBe(true);
  const without = await viteBuild([noMockWorker]);
  expect(existsSync(join(without, 'mockServiceWorker.js'))).toBe(false);
  expect(existsSync(join(without, 'robots.txt'))).toBe(true); // the rest of public/ stays
}, 60_000);
