/**
 * Builds a Vite root (a test site, the playground) into `outDir` the way a user's bundler would:
 * the pages import `mockyard/browser`, resolved to the built package (`dist/`, through the package's
 * `exports`) or, with MOCKYARD_E2E_SOURCE=src, to the TypeScript sources.
 */
import { resolve } from 'node:path';
import { build } from 'vite';
import { mockyardAliases } from '../../../playground/vite-aliases.mjs';

export async function buildSite(
  root: string,
  outDir: string,
  input: Record<string, string>,
  aliases: Array<{ find: RegExp; replacement: string }> = [],
  define: Record<string, string> = {},
): Promise<void> {
  await build({
    root,
    configFile: false,
    logLevel: 'warn',
    publicDir: false,
    define,
    resolve: { alias: [...aliases, ...mockyardAliases(process.env.MOCKYARD_E2E_SOURCE === 'src' ? 'src' : 'dist')] },
    build: {
      outDir,
      emptyOutDir: true,
      minify: false,
      sourcemap: false,
      rollupOptions: { input: Object.fromEntries(Object.entries(input).map(([k, v]) => [k, resolve(root, v)])) },
    },
  });
}
