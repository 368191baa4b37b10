/**
 * The browser-mode snippets, as a user copies them: the blocks in README.md and docs/browser.md
 * are the files of examples/browser-dev-only, which compile under create-vite's strict tsconfig
 * (noUnusedLocals, erasableSyntaxOnly, …) and whose production build holds no mockyard or msw code.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { found, productionBuild } from '../helpers/production-build.js';
import { removeTempDirs } from '../helpers/temp-dir.js';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const example = join(repo, 'examples/browser-dev-only');

afterAll(removeTempDirs);

/** The `<!-- file: examples/browser-dev-only/… -->` blocks of a Markdown file: each its file verbatim. */
async function expectVerbatim(doc: string, files: string[]): Promise<void> {
  const text = await readFile(join(repo, doc), 'utf8');
  const blocks = [...text.matchAll(/<!-- file: (examples\/browser-dev-only\/[^ ]+) -->\n```ts\n([\s\S]*?)```/g)];
  expect(blocks.map((b) => b[1]), doc).toEqual(files);
  for (const [, file, code] of blocks) expect(code, `${doc}: ${file}`).toBe(await readFile(join(repo, file!), 'utf8'));
}

it('README.md shows the mocks module verbatim, docs/browser.md both files', async () => {
  await expectVerbatim('README.md', ['examples/browser-dev-only/src/mocks/browser.ts']);
  await expectVerbatim('docs/browser.md', ['examples/browser-dev-only/src/main.ts', 'examples/browser-dev-only/src/mocks/browser.ts']);
});

it("compiles under create-vite's strict tsconfig", () => {
  expect(existsSync(join(repo, 'dist/browser/index.d.ts')), 'dist/ is built by npm install (prepare); run npm run build').toBe(true);
  const tsc = spawnSync(process.execPath, [join(repo, 'node_modules/typescript/bin/tsc'), '-p', join(example, 'tsconfig.json')], { encoding: 'utf8' });
  expect(tsc.stdout + tsc.stderr).toBe('');
  expect(tsc.status).toBe(0);
}, 60_000);

it('its production build contains no mockyard or msw code', async () => {
  const output = await productionBuild(example);
  expect(output).toContain('/api/users');
  expect(found(output)).toEqual([]);
}, 120_000);
