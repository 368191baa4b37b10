/**
 * Builds the e2e pages and the playground with Vite, writes the worker script with
 * `initWorker` (what `mockyard init-worker` does), and serves everything from one counting
 * static server on 127.0.0.1 (see helpers/static-server.ts).
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { initWorker, workerScript } from '../../src/node/init-worker.js';
import { buildSite } from './helpers/build-site.js';
import { CHROMIUM_PATH } from './helpers/chromium.js';
import { startNodeHost } from './helpers/node-host.js';
import { startStaticServer } from './helpers/static-server.js';

declare module 'vitest' {
  export interface ProvidedContext {
    siteUrl: string;
    /** The built pages' folder (a test may serve it from a server of its own). */
    siteDir: string;
    playgroundUrl: string;
    /** The same playground build, proxying /api and /_tracker to the node host (mockyard CLI). */
    proxiedPlaygroundUrl: string;
    nodeHostDir: string;
    /**
     * A node host of its own for the devtools tests (their events and scenario switches never
     * reach the host other files assert on), and the playground build proxied to it.
     */
    devtoolsNodeHostUrl: string;
    devtoolsPlaygroundUrl: string;
  }
}

const here = fileURLToPath(new URL('.', import.meta.url));

export default async function setup(project: TestProject) {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`Chromium not found at ${CHROMIUM_PATH}: run \`apt-get update && apt-get install -y chromium\` (or set CHROMIUM_PATH)`);
  }
  const out = await mkdtemp(join(tmpdir(), 'mockyard-e2e-site-'));
  // The contract page runs test/vfs/contract.ts unchanged: `vitest` is the in-page shim there.
  await buildSite(join(here, 'site'), out, { minimal: 'minimal.html', contract: 'contract.html', engines: 'engines.html', tracker: 'tracker.html', blank: 'blank.html', jsondb: 'jsondb.html', proxy: 'proxy.html', graphql: 'graphql.html', openapi: 'openapi.html', streams: 'streams.html', har: 'har.html', webhooks: 'webhooks.html', multipart: 'multipart.html', 'devtools-openapi': 'devtools-openapi.html' }, [
    { find: /^vitest$/, replacement: join(here, 'site/vitest-shim.ts') },
  ]);
  await initWorker(out);
  // An older worker script: same file with another checksum/version, for the stale-script test.
  const stale = (await workerScript())
    .replace(/INTEGRITY_CHECKSUM = '[0-9a-f]+'/, "INTEGRITY_CHECKSUM = '00000000000000000000000000000000'")
    .replace(/PACKAGE_VERSION = '[^']+'/, "PACKAGE_VERSION = '2.3.1'");
  await writeFile(join(out, 'stale-worker.js'), stale);
  const server = await startStaticServer(out);
  project.provide('siteUrl', server.url);
  project.provide('siteDir', out);

  const playgroundOut = await mkdtemp(join(tmpdir(), 'mockyard-e2e-playground-'));
  // The playground keeps its in-page backend out of production builds (import.meta.env.DEV);
  // this build is a test build that needs it.
  await buildSite(join(here, '../../playground'), playgroundOut, { index: 'index.html' }, [], { 'import.meta.env.VITE_MOCKYARD_IN_PAGE': JSON.stringify('on') });
  await initWorker(playgroundOut);
  const playground = await startStaticServer(playgroundOut);
  project.provide('playgroundUrl', playground.url);

  const nodeHost = await startNodeHost();
  const proxied = await startStaticServer(playgroundOut, {}, { prefixes: ['/api', '/_tracker'], target: nodeHost.url });
  project.provide('proxiedPlaygroundUrl', proxied.url);
  project.provide('nodeHostDir', nodeHost.dir);
  const devtoolsHost = await startNodeHost('devtools-node-host');
  const devtoolsPlayground = await startStaticServer(playgroundOut, {}, { prefixes: ['/api', '/_tracker'], target: devtoolsHost.url });
  project.provide('devtoolsNodeHostUrl', devtoolsHost.url);
  project.provide('devtoolsPlaygroundUrl', devtoolsPlayground.url);

  return async () => {
    await Promise.all([server.close(), playground.close(), proxied.close(), devtoolsPlayground.close()]);
    await Promise.all([nodeHost.close(), devtoolsHost.close()]);
    await rm(out, { recursive: true, force: true });
    await rm(playgroundOut, { recursive: true, force: true });
  };
}
