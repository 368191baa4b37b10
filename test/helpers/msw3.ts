/**
 * msw 3 for the `msw3` vitest project, installed on demand (not a devDependency: msw 3 requires
 * Node >= 22.12, and a dev alias made every `npm install` on Node 20 print EBADENGINE warnings).
 * `msw3Folder()` installs the pinned version into node_modules/.cache/mockyard-msw3 once (npm,
 * the registry) and returns that folder, whose node_modules/msw the project's `msw` imports are
 * resolved to; undefined (with the reason) when it cannot.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const MSW3_VERSION = '3.0.5';
const folder = fileURLToPath(new URL('../../node_modules/.cache/mockyard-msw3/', import.meta.url));

function installedVersion(): string | undefined {
  try {
    return (JSON.parse(readFileSync(join(folder, 'node_modules/msw/package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return undefined;
  }
}

export function msw3Folder(): { folder: string } | { reason: string } {
  if (installedVersion() === MSW3_VERSION) return { folder };
  try {
    mkdirSync(folder, { recursive: true });
    if (!existsSync(join(folder, 'package.json'))) writeFileSync(join(folder, 'package.json'), '{ "private": true }\n');
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    execFileSync(npm, ['install', `msw@${MSW3_VERSION}`, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--ignore-scripts', '--engine-strict=false', '--loglevel=error'], {
      cwd: folder,
      stdio: ['ignore', 'ignore', 'pipe'],
      timeout: 180_000,
    });
  } catch (err) {
    return { reason: `npm install msw@${MSW3_VERSION} failed: ${String((err as { stderr?: unknown }).stderr ?? err).trim().split('\n')[0]}` };
  }
  return installedVersion() === MSW3_VERSION ? { folder } : { reason: `msw@${MSW3_VERSION} did not install into ${folder}` };
}
