/**
 * Every Markdown code block marked `runnable` in README.md and docs/*.md runs, as a user would run
 * it, and succeeds:
 * - `js runnable` / `ts runnable`: an ES module (`ts` transpiled with Vite's transformWithOxc, as
 *   the CLI does for TypeScript configs on Node 20) run by `node` in a fresh temp folder whose
 *   node_modules has `mockyard` linked to this repository (so `mockyard`, `mockyard/node`, … are
 *   the built dist/) and the repository's own dependencies (msw, …) beside it;
 * - `sh runnable`: bash (`-e -o pipefail`) in such a folder, with `mockyard` (dist/node/cli.js) on
 *   PATH.
 * A block must end on its own (close what it starts) and fail by throwing or exiting non-zero.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { makeTempDir, removeTempDirs } from '../helpers/temp-dir.js';
import { markdownBlocks, type MarkdownBlock } from './markdown-blocks.js';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const cli = join(repo, 'dist/node/cli.js');
const TIMEOUT = 60_000;

afterAll(removeTempDirs);

const files = ['README.md', ...(await readdir(join(repo, 'docs'))).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];
const runnable: Array<{ file: string; block: MarkdownBlock }> = [];
for (const file of files) {
  for (const block of markdownBlocks(await readFile(join(repo, file), 'utf8'))) {
    if (block.flags.includes('runnable')) runnable.push({ file, block });
  }
}

/** A folder where `import 'mockyard'` is this repository's build and `mockyard` is on PATH. */
async function sandbox(): Promise<{ dir: string; env: NodeJS.ProcessEnv }> {
  const dir = await makeTempDir('mockyard-docs-');
  const modules = join(dir, 'node_modules');
  const bin = join(dir, '.bin');
  await mkdir(modules);
  await mkdir(bin);
  await symlink(repo, join(modules, 'mockyard'), 'dir');
  for (const name of await readdir(join(repo, 'node_modules'))) {
    if (name.startsWith('.') || name === 'mockyard') continue;
    await symlink(join(repo, 'node_modules', name), join(modules, name), 'dir');
  }
  await symlink(cli, join(bin, 'mockyard'));
  const env: NodeJS.ProcessEnv = { ...process.env, PATH: `${bin}:${process.env.PATH ?? ''}`, NO_COLOR: '1', FORCE_COLOR: undefined };
  for (const key of Object.keys(env)) if (key.startsWith('VITEST') || key === 'NODE_OPTIONS') delete env[key];
  return { dir, env };
}

/**
 * Runs a block's process in its own process group; when it exits, whatever it left running (a
 * server started with `&` and never stopped) is killed and the block fails: it must close what it
 * starts.
 */
function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (output += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (output += s));
    const killGroup = (): boolean => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
        return true;
      } catch {
        return false; // no process left in the group
      }
    };
    const timer = setTimeout(() => {
      output += `\n[killed after ${(TIMEOUT - 5_000) / 1000} s: the block did not end on its own]`;
      killGroup();
    }, TIMEOUT - 5_000);
    let exit: number | null = null;
    const done = () => resolve({ code: exit, output });
    child.on('exit', (code) => {
      clearTimeout(timer);
      exit = code;
      if (killGroup()) {
        output += '\n[the block ended but left a process running (killed): close what it starts]';
        if (exit === 0) exit = null;
      }
      setTimeout(done, 2_000).unref(); // in case a process left the group and holds the pipes
    });
    child.on('close', () => setImmediate(done));
  });
}

async function runBlock(block: MarkdownBlock): Promise<{ code: number | null; output: string }> {
  const { dir, env } = await sandbox();
  switch (block.lang) {
    case 'js':
    case 'mjs':
    case 'javascript':
      await writeFile(join(dir, 'block.mjs'), block.code);
      return run(process.execPath, ['block.mjs'], dir, env);
    case 'ts':
    case 'typescript': {
      const { transformWithOxc } = await import('vite');
      const { code } = await transformWithOxc(block.code, join(dir, 'block.ts'), { lang: 'ts' });
      await writeFile(join(dir, 'block.mjs'), code);
      return run(process.execPath, ['block.mjs'], dir, env);
    }
    case 'sh':
    case 'bash':
      await writeFile(join(dir, 'block.sh'), block.code);
      return run('bash', ['-e', '-o', 'pipefail', 'block.sh'], dir, env);
    default:
      return { code: null, output: `a runnable block must be js, ts or sh (got ${JSON.stringify(block.lang)})` };
  }
}

it('the docs hold runnable blocks, and the build they run against exists', () => {
  expect(existsSync(cli), 'dist/ is built by npm install (prepare); run npm run build').toBe(true);
  expect(runnable.length).toBeGreaterThan(0);
});

describe.each(files.filter((f) => runnable.some((r) => r.file === f)))('%s', (file) => {
  it.each(runnable.filter((r) => r.file === file).map((r) => [`line ${r.block.line} (${r.block.lang})`, r.block] as const))(
    '%s runs and succeeds',
    async (_name, block) => {
      const { code, output } = await runBlock(block);
      expect(code, `${file}:${block.line} failed:\n${output}`).toBe(0);
    },
    TIMEOUT,
  );
});
