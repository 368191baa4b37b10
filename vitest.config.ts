import { defineConfig } from 'vitest/config';

// msw 3 needs Node >= 22.12 (its engines field); the handlersFor suite runs against it where Node
// allows. msw 2.x (the devDependency, Node 20) runs the same suite in the default project.
const [major, minor] = process.versions.node.split('.').map(Number) as [number, number];
// MOCKYARD_MSW3=1 runs it on an older Node anyway (outside msw 3's supported range).
const nodeFitsMsw3 = major > 22 || (major === 22 && minor >= 12);
const msw3 = nodeFitsMsw3 || process.env.MOCKYARD_MSW3 === '1';
if (!msw3) console.log(`[mockyard] msw 3 suite (test/msw with msw@3) skipped: Node ${process.versions.node} < 22.12, which msw 3 requires`);

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
      ...(msw3
        ? [
            {
              extends: true as const,
              // `msw` and `msw/*` resolve to msw 3 (the devDependency alias `msw3`), in the tests and in src/msw.
              resolve: { alias: [{ find: /^msw(\/.*)?$/, replacement: 'msw3$1' }] },
              test: { name: 'msw3', include: ['test/msw/**/*.test.ts'], setupFiles: nodeFitsMsw3 ? [] : ['test/msw/msw3-node20-shims.ts'] },
            },
          ]
        : []),
    ],
  },
});
