/**
 * `npm run typecheck` reads the package's own entries from `src/`, never from a build: every
 * entry of package.json `exports` has a `compilerOptions.paths` mapping in tsconfig.json to the
 * source file its `types` (dist/X.d.ts) is built from (src/X.ts). Without one, a test or page
 * importing `mockyard/<entry>` resolves through `exports` to `dist/`, and a stale build reports
 * errors the code does not have (or hides ones it has). tsconfig.build.json (the build) has no
 * part in this.
 */
import { access, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const repo = fileURLToPath(new URL('../../', import.meta.url));

it('every package entry is mapped to its source in tsconfig.json paths', async () => {
  const pkg = JSON.parse(await readFile(`${repo}package.json`, 'utf8')) as { name: string; exports: Record<string, string | { types?: string }> };
  const tsconfig = JSON.parse(await readFile(`${repo}tsconfig.json`, 'utf8')) as { compilerOptions: { paths?: Record<string, string[]> } };
  const paths = tsconfig.compilerOptions.paths ?? {};
  const expected: Record<string, string[]> = {};
  for (const [entry, target] of Object.entries(pkg.exports)) {
    if (typeof target === 'string' || target.types === undefined) continue; // ./package.json
    const source = target.types.replace(/^\.\/dist\//, './src/').replace(/\.d\.ts$/, '.ts');
    await access(`${repo}${source}`);
    expected[entry === '.' ? pkg.name : `${pkg.name}/${entry.slice(2)}`] = [source];
  }
  const mapped = Object.fromEntries(Object.entries(paths).filter(([name]) => name === pkg.name || name.startsWith(`${pkg.name}/`)));
  expect(mapped).toEqual(expected);
});
