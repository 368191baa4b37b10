/**
 * The package as a user installs it: `npm pack` of this repository installed into a fresh
 * project. The tarball ships dist/ (built by `prepack`), so it runs no script at install:
 * npm prints no install-scripts warning (no `prepare`), and its own engines fit Node 20.
 * The pack runs with --ignore-scripts: dist/ is already built (`pretest`), and rebuilding it here
 * would rewrite files other test files are reading.
 */
import { execFile } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, removeTempDirs } from '../helpers/temp-dir.js';

const run = promisify(execFile);
const repo = fileURLToPath(new URL('../../', import.meta.url));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

describe('the npm pack tarball', () => {
  let dir: string;
  let installLog: string;

  beforeAll(async () => {
    dir = await makeTempDir('mockyard-tarball-');
    const packed = await run(npm, ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], { cwd: repo });
    const [{ filename }] = JSON.parse(packed.stdout) as Array<{ filename: string }>;
    const app = join(dir, 'app');
    await mkdir(app);
    await writeFile(join(app, 'package.json'), '{ "name": "app", "private": true, "type": "module" }\n');
    const installed = await run(npm, ['install', '--prefer-offline', '--no-audit', '--no-fund', join(dir, filename)], { cwd: app, maxBuffer: 16 << 20 });
    installLog = installed.stdout + installed.stderr;
  }, 240_000);
  afterAll(removeTempDirs);

  it('installs without any install-script or engine warning', () => {
    expect(installLog).not.toMatch(/install-scripts|prepare|EBADENGINE/);
  });

  it('ships a built dist/: the CLI and the entries run as installed', async () => {
    const app = join(dir, 'app');
    const help = await run(join(app, 'node_modules/.bin/mockyard'), ['--help'], { cwd: app });
    expect(help.stdout).toContain('mockyard');
    const imported = await run(process.execPath, ['--input-type=module', '-e', "const m = await import('mockyard'); const b = await import('mockyard/node'); console.log(typeof m.createMockApi, typeof b.serve)"], { cwd: app });
    expect(imported.stdout.trim()).toBe('function function');
  });

  it('has no script that runs on a consumer install; prepack builds dist/', async () => {
    const pkg = JSON.parse(await readFile(join(repo, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    for (const hook of ['preinstall', 'install', 'postinstall', 'prepare']) expect(pkg.scripts[hook], hook).toBeUndefined();
    expect(pkg.scripts.prepack).toMatch(/npm run build/);
    // The test command and the demo build what they need on a fresh clone.
    expect(pkg.scripts.pretest).toMatch(/npm run build/);
    expect(pkg.scripts.start).toMatch(/npm run build/);
  });
});
