/**
 * Every package the lockfile installs fits the oldest Node this package supports (its
 * `engines.node`, 20.19): `npm ci` on Node 20 prints no EBADENGINE warning. `.ci/run` also fails
 * on any EBADENGINE line in the real `npm ci` output.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const semver = createRequire(import.meta.url)('semver') as { minVersion(range: string): { version: string } | null; satisfies(v: string, range: string): boolean };

it('no package in package-lock.json requires a newer Node than package.json engines.node allows', async () => {
  const pkg = JSON.parse(await readFile(`${repo}package.json`, 'utf8')) as { engines: { node: string } };
  const lock = JSON.parse(await readFile(`${repo}package-lock.json`, 'utf8')) as { packages: Record<string, { version?: string; engines?: unknown }> };
  const oldest = semver.minVersion(pkg.engines.node)!.version;
  expect(oldest).toBe('20.19.0');
  const misfits = Object.entries(lock.packages)
    .filter(([, p]) => typeof (p.engines as { node?: unknown } | undefined)?.node === 'string')
    .filter(([, p]) => !semver.satisfies(oldest, (p.engines as { node: string }).node))
    .map(([path, p]) => `${path}@${p.version} (node ${(p.engines as { node: string }).node})`);
  expect(misfits).toEqual([]);
});
