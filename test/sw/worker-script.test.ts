/**
 * The worker script: `initWorker` writes msw's own script, and the checksum the page-side check
 * expects (src/sw/msw-adapter.ts) is the one in the bundled msw — a msw upgrade that changes the
 * script fails here until the adapter is updated.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { initWorker } from '../../src/node/init-worker.js';

const require = createRequire(import.meta.url);
const mswScript = () => readFile(require.resolve('msw/mockServiceWorker.js'), 'utf8');
let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('worker script', () => {
  it('the adapter expects the checksum and version of the bundled msw script', async () => {
    const adapter = await readFile(new URL('../../src/sw/msw-adapter.ts', import.meta.url), 'utf8');
    const script = await mswScript();
    const checksum = /INTEGRITY_CHECKSUM = '([0-9a-f]+)'/.exec(script)![1];
    const version = /PACKAGE_VERSION = '([^']+)'/.exec(script)![1];
    expect(adapter).toContain(`WORKER_INTEGRITY_CHECKSUM = '${checksum}'`);
    expect(adapter).toContain(`WORKER_PACKAGE_VERSION = '${version}'`);
    expect(version).toBe(require('msw/package.json').version);
  });

  it('initWorker writes the script into the public dir (creating it), then reports no change', async () => {
    dir = await mkdtemp(join(tmpdir(), 'mockyard-init-'));
    const first = await initWorker(join(dir, 'public'));
    expect(first.changed).toBe(true);
    expect(await readFile(first.path, 'utf8')).toBe(await mswScript());
    expect((await initWorker(join(dir, 'public'))).changed).toBe(false);
  });
});
