/**
 * Bundle discipline: a page using startWorker + indexedDbFs + both engines + a handler
 * (bench/browser-pages/mockyard.ts), built with Vite for the browser the way a user's bundler
 * would, pulls in no Node built-in, no polyfill and none of memfs, busboy, ws.
 */
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { build } from 'vite';
import { mockyardAliases } from '../../playground/vite-aliases.mjs';

const pages = fileURLToPath(new URL('../../bench/browser-pages/', import.meta.url));

it('mockyard/browser bundles without Node built-ins, memfs, busboy or ws', async () => {
  const modules: string[] = [];
  const startup: string[] = [];
  const warnings: string[] = [];
  await build({
    root: pages,
    configFile: false,
    logLevel: 'silent',
    publicDir: false,
    resolve: { alias: mockyardAliases(process.env.MOCKYARD_E2E_SOURCE === 'src' ? 'src' : 'dist') },
    plugins: [{
      name: 'record-modules',
      generateBundle(_options, bundle) {
        for (const out of Object.values(bundle)) if (out.type === 'chunk') modules.push(...Object.keys(out.modules));
        // The page's start-up JS: entry chunks and their static imports.
        const seen = new Set<string>();
        const visit = (file: string) => {
          const out = bundle[file];
          if (seen.has(file) || !out || out.type !== 'chunk') return;
          seen.add(file);
          startup.push(...Object.keys(out.modules));
          out.imports.forEach(visit);
        };
        for (const out of Object.values(bundle)) if (out.type === 'chunk' && out.isEntry) visit(out.fileName);
      },
    }],
    build: {
      write: false,
      minify: false,
      rollupOptions: {
        input: { mockyard: `${pages}mockyard.html` },
        onwarn: (w) => warnings.push(String(w.message)),
      },
    },
  });
  expect(modules.some((m) => m.includes('/msw/'))).toBe(true);
  expect(modules.some((m) => /\/(src|dist)\/tracker\/collector\.(ts|js)$/.test(m))).toBe(true);
  const forbidden = modules.filter((m) => /node_modules\/(memfs|busboy|ws|streamsearch|@jsonjoy\.com|buffer|process|events|stream-browserify|util)\//.test(m) || m.startsWith('node:') || m.includes('__vite-browser-external'));
  expect(forbidden).toEqual([]);
  expect(warnings.filter((w) => /externalized for browser compatibility/.test(w))).toEqual([]);
  // Parts this page never uses at start-up are chunks of their own, fetched on demand: the WebSocket
  // protocols (collector; mock API without enableWs), gzip reads (the page's collector reads plain
  // JSON), gunzip of ingest bodies, the collector's segment files (it has no storage), JSON Patch,
  // json-server collections (all but their option's resolver, read at start-up with every option)
  // and the db.json driver (the page turns neither on), the devtools admin
  // routes, the devtools page (its prebuilt bundle and the overlay that mounts it in the tab).
  const lazy = /(tracker\/(ws-session|read-encoder|gzip-pieces|event-segments)|core\/inflate-bounded|engine\/ws\/(layer|connection|hub|heartbeat|frames)|engine\/collections\/(?!options\.)[a-z-]+|vfs\/json-db|devtools\/(admin|page-route|page-assets\.generated)|sw\/devtools-overlay)\.(ts|js)$|node_modules\/(rfc6902|fflate)\//;
  const devtoolsPage = /(devtools\/page-assets\.generated|sw\/devtools-overlay)\.(ts|js)$/;
  expect(modules.filter((m) => devtoolsPage.test(m))).toHaveLength(2);
  expect(modules.filter((m) => lazy.test(m)).length).toBeGreaterThan(0);
  expect(startup.filter((m) => lazy.test(m))).toEqual([]);
  expect(startup.some((m) => /\/(src|dist)\/tracker\/collector\.(ts|js)$/.test(m))).toBe(true);
});
