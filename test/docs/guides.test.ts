/**
 * The guides hang together: README.md stays short (about 200 lines: what, the two commands, one
 * example per host, the table of guides; details go to a guide), its table of guides lists every
 * docs/*.md once, and every guide opens with a working example — a `runnable` block (run by runnable-blocks.test.ts) before
 * its first `## ` section. development.md is the exception: its commands are the repository's own
 * scripts, which no temp folder can run.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { markdownBlocks } from './markdown-blocks.js';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const guides = (await readdir(join(repo, 'docs'))).filter((f) => f.endsWith('.md')).sort();
const NOT_RUNNABLE_HERE = new Set(['development.md']);

it('README.md stays about 200 lines', async () => {
  const lines = (await readFile(join(repo, 'README.md'), 'utf8')).trimEnd().split('\n').length;
  expect(lines, 'README.md grew: move the details into the guide for its audience (docs/*.md)').toBeLessThanOrEqual(220);
});

it("README.md's table of guides lists every docs/*.md once", async () => {
  const readme = await readFile(join(repo, 'README.md'), 'utf8');
  const at = readme.indexOf('\n## Guides\n');
  expect(at).toBeGreaterThan(-1);
  const section = readme.slice(at + 1).split(/\n## /)[0]!;
  const rows = section.split('\n').filter((l) => l.startsWith('| ['));
  const listed = rows.map((l) => /\]\(docs\/([^)#]+\.md)\)/.exec(l)?.[1]);
  expect([...listed].sort()).toEqual(guides);
});

it.each(guides.filter((g) => !NOT_RUNNABLE_HERE.has(g)))('docs/%s opens with a runnable example', async (guide) => {
  const text = await readFile(join(repo, 'docs', guide), 'utf8');
  const blocks = markdownBlocks(text);
  const inBlock = (line: number) => blocks.some((b) => line > b.line && line <= b.line + b.code.split('\n').length - 1);
  const lines = text.split('\n');
  const firstSection = lines.findIndex((l, i) => l.startsWith('## ') && !inBlock(i + 1)) + 1 || lines.length + 1;
  const firstRunnable = blocks.find((b) => b.flags.includes('runnable'));
  expect(firstRunnable, `docs/${guide} has no runnable block`).toBeDefined();
  expect(firstRunnable!.line, `docs/${guide}: its first runnable block comes after its first section`).toBeLessThan(firstSection);
});
