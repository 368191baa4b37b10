/**
 * Browser mode never ships to production: the playground loads its in-page backend with a dynamic
 * import behind `import.meta.env.DEV`, so a production `vite build` contains no mockyard engine,
 * no msw and no worker glue. The same build with VITE_MOCKYARD_IN_PAGE=on (what the e2e suite
 * builds) does contain them: the markers are found when the code is there.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { ALL_MARKERS, found, productionBuild } from '../helpers/production-build.js';
import { removeTempDirs } from '../helpers/temp-dir.js';

const root = fileURLToPath(new URL('../../playground/', import.meta.url));

afterAll(removeTempDirs);

describe('playground production build', () => {
  it('contains no mockyard engine, msw or worker code', async () => {
    const output = await productionBuild(root);
    expect(output).toContain('team tasks'); // the app itself is there
    expect(found(output)).toEqual([]);
  }, 120_000);

  it('with the in-page flag the same build does contain them (the markers detect the code)', async () => {
    const output = await productionBuild(root, { 'import.meta.env.VITE_MOCKYARD_IN_PAGE': JSON.stringify('on') });
    expect(found(output)).toEqual(ALL_MARKERS);
  }, 120_000);
});
