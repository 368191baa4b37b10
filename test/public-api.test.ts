/**
 * The public API, written down: every export of every entry in package.json's `exports` (values
 * from the built modules, types from their declaration files), compared with
 * test/public-api.snapshot.txt. A change to the surface — a name added, removed, or turned from
 * a type into a value — is a visible diff in that file: review it, then update it with
 * `npx vitest run test/public-api.test.ts -u`. Names kept for one version as `@deprecated` aliases
 * are marked `(deprecated)`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { expect, it } from 'vitest';

const repo = fileURLToPath(new URL('../', import.meta.url));
const pkg = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { exports: Record<string, string | Record<string, string>> };

/** Names a declaration file exports, following `export … from` and `export *` (tsc's output is regular). */
function declaredNames(file: string, seen = new Set<string>()): Set<string> {
  const names = new Set<string>();
  if (seen.has(file)) return names;
  seen.add(file);
  const text = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  const target = (spec: string) => resolve(dirname(file), spec.replace(/\.js$/, '.d.ts'));
  for (const m of text.matchAll(/^export\s+(?:type\s+)?\*\s+from\s+['"]([^'"]+)['"]/gm)) {
    for (const n of declaredNames(target(m[1]!), seen)) if (n !== 'default') names.add(n);
  }
  for (const m of text.matchAll(/^export\s+\*\s+as\s+(\w+)\s+from/gm)) names.add(m[1]!);
  for (const m of text.matchAll(/^export\s+(?:type\s+)?\{([^}]*)\}/gm)) {
    for (const spec of m[1]!.split(',')) {
      const words = spec.trim().replace(/^type\s+/, '').split(/\s+as\s+/);
      const name = words[words.length - 1]!.trim();
      if (name) names.add(name);
    }
  }
  for (const m of text.matchAll(/^export\s+(?:declare\s+)?(?:abstract\s+)?(?:function|const|let|var|class|interface|type|enum|namespace)\s+(\w+)/gm)) names.add(m[1]!);
  if (/^export\s+default\b/m.test(text)) names.add('default');
  return names;
}

/** Names whose declaration in this file carries a `@deprecated` JSDoc tag (the old names kept for one version). */
function deprecatedNames(file: string): Set<string> {
  const text = readFileSync(file, 'utf8');
  const names = new Set<string>();
  for (const m of text.matchAll(/\/\*\*((?:(?!\*\/)[\s\S])*)\*\/\s*export\s+(?:declare\s+)?(?:const|function|class|interface|type)\s+(\w+)/g)) {
    if (/@deprecated\b/.test(m[1]!)) names.add(m[2]!);
  }
  return names;
}

function conditionPath(entry: string | Record<string, string>, condition: string): string | undefined {
  return typeof entry === 'string' ? entry : (entry[condition] ?? entry.default);
}

async function surface(): Promise<string> {
  const out: string[] = [];
  for (const [subpath, entry] of Object.entries(pkg.exports)) {
    if (subpath === './package.json') continue;
    const name = subpath === '.' ? 'mockyard' : `mockyard/${subpath.slice(2)}`;
    const types = join(repo, conditionPath(entry, 'types')!);
    const runtime = join(repo, conditionPath(entry, 'node')!);
    expect(existsSync(types) && existsSync(runtime), `${name}: dist/ is built by npm install (prepare); run npm run build`).toBe(true);
    const values = Object.keys(await import(pathToFileURL(runtime).href)).sort();
    const declared = [...declaredNames(types)];
    // What the declarations do not name is not reachable by a TypeScript user either.
    expect(values.filter((v) => !declared.includes(v)), `${name}: runtime exports missing from its .d.ts`).toEqual([]);
    const typeOnly = declared.filter((n) => !values.includes(n)).sort();
    const deprecated = deprecatedNames(types);
    const shown = (list: string[]) => list.map((n) => (deprecated.has(n) ? `${n} (deprecated)` : n)).join(', ');
    const wholeEntryDeprecated = /^\s*\/\*\*(?:(?!\*\/)[\s\S])*@deprecated/.test(readFileSync(types, 'utf8'));
    out.push(`${name}${wholeEntryDeprecated ? ' (deprecated entry)' : ''}`, `  values (${values.length}): ${shown(values)}`, `  types (${typeOnly.length}): ${shown(typeOnly)}`, '');
  }
  return out.join('\n');
}

it('every entry exports what test/public-api.snapshot.txt lists (values and types)', async () => {
  await expect(await surface()).toMatchFileSnapshot('./public-api.snapshot.txt');
});

it('every option and handler type (src/engine/types.ts) can be named from mockyard', () => {
  const optionTypes = [...declaredNames(join(repo, 'dist/engine/types.d.ts'))];
  const root = declaredNames(join(repo, 'dist/index.d.ts'));
  expect(optionTypes.filter((n) => !root.has(n)), 'add them to the list in src/index.ts').toEqual([]);
});

it('an entry that runs in the browser gives the same values under the default condition', async () => {
  for (const [subpath, entry] of Object.entries(pkg.exports)) {
    if (typeof entry === 'string' || !entry.node || !entry.default) continue;
    const node = Object.keys(await import(pathToFileURL(join(repo, entry.node)).href)).sort();
    const other = Object.keys(await import(pathToFileURL(join(repo, entry.default)).href)).sort();
    expect(other, subpath).toEqual(node);
  }
});
