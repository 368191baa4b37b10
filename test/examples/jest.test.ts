/**
 * mockyard/test in jest: examples/jest runs with jest (29.7, the devDependency) in its ESM mode, in jest's node
 * environment and in its jsdom environment (plus Node's fetch classes, which jsdom lacks).
 * Needs dist/ (built by npm install's prepare).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const repo = fileURLToPath(new URL('../../', import.meta.url));

it('examples/jest passes under jest (node and jsdom environments)', () => {
  expect(existsSync(join(repo, 'dist/test/index.js')), 'dist/ is built by npm install (prepare); run npm run build').toBe(true);
  const run = spawnSync(process.execPath, ['--experimental-vm-modules', join(repo, 'node_modules/jest/bin/jest.js'), '--config', join(repo, 'examples/jest/jest.config.js'), '--ci'], {
    cwd: repo,
    encoding: 'utf8',
    env: { ...process.env, NODE_ENV: 'test' },
  });
  const output = run.stdout + run.stderr;
  expect(output).toMatch(/PASS examples\/jest\/users\.test\.js/);
  expect(output).toMatch(/PASS examples\/jest\/users-dom\.test\.js/);
  expect(output).toMatch(/Tests:\s+7 passed, 7 total/);
  expect(run.status, output).toBe(0);
}, 120_000);
