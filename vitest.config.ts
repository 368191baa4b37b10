import { join } from 'node:path';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';
import { msw3Folder } from './test/helpers/msw3.js';

// msw 3 needs Node >= 22.12 (its engines field); the handlersFor suite runs against it where Node
// allows, from a copy installed on demand (test/helpers/msw3.ts; not a devDependency, so a plain
// `npm install` on Node 20 has nothing to warn about). msw 2.x (the devDependency) runs the same
// suite in the default project.
const [major, minor] = process.versions.node.split('.').map(Number) as [number, number];
const nodeFitsMsw3 = major > 22 || (major === 22 && minor >= 12);
// MOCKYARD_MSW3=1 runs it on an older Node anyway (outside msw 3's supported range).
const wanted = nodeFitsMsw3 || process.env.MOCKYARD_MSW3 === '1';
const msw3 = wanted ? msw3Folder() : { reason: `Node ${process.versions.node} < 22.12, which msw 3 requires` };
if (!('folder' in msw3)) console.log(`[mockyard] msw 3 suite (test/msw with msw@3) skipped: ${msw3.reason}`);

/** `msw` and `msw/*` (in the tests and in src/msw) resolve to the msw 3 copy. */
function resolveMsw3(folder: string): Plugin {
  const from = join(folder, 'package.json'); // an existing file: the resolver starts from its folder
  return {
    name: 'mockyard:msw3',
    enforce: 'pre',
    resolveId(source, _importer, options) {
      if (source !== 'msw' && !source.startsWith('msw/')) return null;
      return this.resolve(source, from, { ...options, skipSelf: true });
    },
  };
}

export default defineConfig({
  test: {
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: ['test/e2e/**', 'node_modules/**'],
        },
      },
      // The example project (its own config: setupFiles, environments), as a user runs it.
      'examples/vitest/vitest.config.ts',
      ...('folder' in msw3
        ? [
            {
              extends: true as const,
              plugins: [resolveMsw3(msw3.folder)],
              test: { name: 'msw3', include: ['test/msw/**/*.test.ts'], setupFiles: nodeFitsMsw3 ? [] : ['test/msw/msw3-node20-shims.ts'] },
            },
          ]
        : []),
    ],
  },
});
