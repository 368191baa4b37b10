/**
 * docs/testing.md's per-test override recipe runs as written: its two vitest files (the blocks
 * after "Per-test overrides") in a fresh folder with `mocks/todos.json`, `mockyard` linked to this
 * repository's build, run by vitest. The only addition is the module under test (`loadTodos`).
 * The mocks on disk are unchanged afterwards.
 */
import { spawnSync } from 'node:child_process';
import { mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { makeTempDir, removeTempDirs } from '../helpers/temp-dir.js';
import { markdownBlocks } from './markdown-blocks.js';

const repo = fileURLToPath(new URL('../../', import.meta.url));
afterAll(removeTempDirs);

const TODOS = [{ id: 1, title: 'a' }, { id: 2, title: 'b' }, { id: 3, title: 'c' }];

it('the vitest recipe with overlayFs(memoryFs(), diskFs("mocks")) and api.reset() passes', async () => {
  const doc = await readFile(join(repo, 'docs/testing.md'), 'utf8');
  const at = doc.indexOf('## Per-test overrides');
  expect(at).toBeGreaterThan(-1);
  const blocks = markdownBlocks(doc.slice(at)).filter((b) => b.lang === 'ts').slice(0, 2);
  const setup = blocks.find((b) => b.code.includes('// test/setup.ts'))!.code;
  const spec = blocks.find((b) => b.code.includes('// test/todos.test.ts'))!.code;

  const dir = await makeTempDir('mockyard-recipe-');
  await mkdir(join(dir, 'node_modules'));
  await symlink(repo, join(dir, 'node_modules', 'mockyard'), 'dir');
  for (const name of await readdir(join(repo, 'node_modules'))) {
    if (!name.startsWith('.') && name !== 'mockyard') await symlink(join(repo, 'node_modules', name), join(dir, 'node_modules', name), 'dir');
  }
  await mkdir(join(dir, 'mocks'));
  await writeFile(join(dir, 'mocks', 'todos.json'), JSON.stringify(TODOS));
  await mkdir(join(dir, 'test'));
  await writeFile(join(dir, 'package.json'), '{ "type": "module" }');
  await writeFile(join(dir, 'vitest.config.mjs'), "export default { test: { globals: true, include: ['test/**/*.test.ts'] } };\n");
  await writeFile(join(dir, 'test', 'setup.ts'), setup);
  const moduleUnderTest = "const loadTodos = async () => { const r = await fetch('/api/todos'); const body = await r.json(); if (!r.ok) throw new Error(body.message); return body; };\n";
  await writeFile(join(dir, 'test', 'todos.test.ts'), spec.replace(/^(import .*\n)+/m, (imports) => imports + moduleUnderTest));

  const env = { ...process.env };
  for (const key of Object.keys(env)) if (key.startsWith('VITEST') || key === 'NODE_OPTIONS') delete env[key];
  const r = spawnSync(process.execPath, [join(repo, 'node_modules/vitest/vitest.mjs'), 'run', '--root', dir], { cwd: dir, env, encoding: 'utf8', timeout: 60_000 });
  expect(r.status, r.stdout + r.stderr).toBe(0);
  expect(r.stdout).toMatch(/2 passed/);
  expect(JSON.parse(await readFile(join(dir, 'mocks', 'todos.json'), 'utf8'))).toEqual(TODOS);
}, 90_000);
