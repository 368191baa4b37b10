/**
 * `mockyard/test` and `mockyard/msw` must run in happy-dom, jsdom and pages: walking their source
 * imports (relative ones followed, static and dynamic) finds no Node built-in, `ws`, `busboy` or
 * memfs.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const src = fileURLToPath(new URL('../../src/', import.meta.url));
const IMPORT = /(?:^|\s)(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]/g;

/** Bare specifiers reached from `entry`, with the file that imports each. */
function bareImports(entry: string): Map<string, string> {
  const seen = new Set<string>();
  const bare = new Map<string, string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(IMPORT)) {
      const spec = m[1] ?? m[2]!;
      if (spec.startsWith('.')) visit(resolve(dirname(file), spec.replace(/\.js$/, '.ts')));
      else if (!bare.has(spec)) bare.set(spec, file.slice(src.length));
    }
  };
  visit(resolve(src, entry));
  return bare;
}

it.each(['test/index.ts', 'msw/index.ts', 'browser/index.ts', 'storybook/index.ts', 'index.ts'])('%s reaches no node-only module', (entry) => {
  const bare = bareImports(entry);
  // memfs pulls node:buffer into browser bundles; json-merge-patch is CommonJS only (a Vite dev
  // server that does not pre-bundle it fails on its default export).
  const nodeOnly = [...bare].filter(([spec]) => spec.startsWith('node:') || ['ws', 'busboy', 'memfs', 'json-merge-patch', 'json-merge-patch/lib/apply.js'].includes(spec));
  expect(nodeOnly).toEqual([]);
  expect(bare.size).toBeGreaterThan(0);
});

it('mockyard/tracker reaches the tracker client only (no engine, msw or devtools code)', () => {
  const files = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    for (const m of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const spec = m[1] ?? m[2]!;
      if (spec.startsWith('.')) visit(resolve(dirname(file), spec.replace(/\.js$/, '.ts')));
    }
  };
  visit(resolve(src, 'tracker/client-entry.ts'));
  const outside = [...files].map((f) => f.slice(src.length)).filter((f) => !f.startsWith('tracker/') && !f.startsWith('core/'));
  expect(outside).toEqual([]);
  expect([...bareImports('tracker/client-entry.ts').keys()].filter((s) => s.startsWith('msw'))).toEqual([]);
});

it('the walk does see node-only imports where they are (the node entry)', () => {
  expect([...bareImports('node/index.ts').keys()].some((s) => s.startsWith('node:'))).toBe(true);
});

it('mockyard/test under Node (the `node` condition) is the entry that also intercepts node:http', async () => {
  const pkg = JSON.parse(readFileSync(resolve(src, '../package.json'), 'utf8')) as { exports: Record<string, Record<string, string>> };
  expect(pkg.exports['./test']).toMatchObject({ node: './dist/test/index.node.js', default: './dist/test/index.js' });
  expect(bareImports('test/index.node.ts').has('@mswjs/interceptors/ClientRequest')).toBe(true);
  expect(bareImports('test/index.ts').has('@mswjs/interceptors/ClientRequest')).toBe(false);
});
