/**
 * ARCHITECTURE.md, and the comments in src/, name only files that exist: every `src/…` path
 * they give, every source file ARCHITECTURE.md names in backticks, and every source file a src/
 * comment names (by its name, wherever it lives). Templates (`src/engine/<feature>/layer.ts`) and `utils.ts` (named as what must not
 * exist) are not file names.
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sourceFiles } from '../helpers/source-files.js';

const ROOT = resolve(import.meta.dirname, '../..');
const NOT_FILES = new Set(['utils.ts']);
const isTemplate = (name: string) => name.includes('<');

/** `src/…` paths in `text` (not the tail of another path, as in `playground/src/…`). */
function srcPaths(text: string): string[] {
  return [...text.matchAll(/(?<![\w./-])src\/[\w./<>-]+\.(?:tsx?|mjs)\b/g)].map((m) => m[0]).filter((p) => !isTemplate(p));
}

const allSources = [...sourceFiles(resolve(ROOT, 'src')), ...sourceFiles(resolve(ROOT, 'test'))];
const sourceNames = new Set(allSources.map((f) => basename(f)));

describe('names of files in ARCHITECTURE.md and in src/ comments', () => {
  it('every src/ path ARCHITECTURE.md or a src/ file gives exists', () => {
    const texts: Array<[string, string]> = [
      ['ARCHITECTURE.md', readFileSync(resolve(ROOT, 'ARCHITECTURE.md'), 'utf8')],
      ...sourceFiles(resolve(ROOT, 'src'))
        .filter((f) => !f.includes('.generated.'))
        .map((f): [string, string] => [relative(ROOT, f), readFileSync(f, 'utf8')]),
    ];
    const missing = texts.flatMap(([where, text]) => srcPaths(text).filter((p) => !existsSync(resolve(ROOT, p))).map((p) => `${where}: ${p}`));
    expect(missing).toEqual([]);
  });

  it('every source file a comment in src/ names exists', () => {
    const missing = sourceFiles(resolve(ROOT, 'src'))
      .filter((f) => !f.includes('.generated.'))
      .flatMap((f) =>
        readFileSync(f, 'utf8')
          .split('\n')
          .filter((line) => /^\s*(\*|\/\/|\/\*)/.test(line))
          .flatMap((line) => [...line.matchAll(/(?<![\w./<>-])([a-z][\w-]*\.tsx?)\b/g)].map((m) => m[1]!))
          .filter((name) => !sourceNames.has(name) && !NOT_FILES.has(name))
          .map((name) => `${relative(ROOT, f)}: ${name}`),
      );
    expect(missing).toEqual([]);
  });

  it('every source file ARCHITECTURE.md names in backticks exists', () => {
    const text = readFileSync(resolve(ROOT, 'ARCHITECTURE.md'), 'utf8');
    const named = [...text.matchAll(/`([\w./<>@-]+\.(?:tsx?|mjs))`/g)].map((m) => m[1]!).filter((n) => !isTemplate(n) && !NOT_FILES.has(n));
    expect(named.length).toBeGreaterThan(50);
    expect(named.filter((n) => !sourceNames.has(basename(n)) && !existsSync(resolve(ROOT, n)))).toEqual([]);
  });
});
