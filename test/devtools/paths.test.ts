/**
 * Where the devtools live is said once (src/devtools/paths.ts: DEVTOOLS_BASE, ADMIN_BASE): no
 * other source file spells `/_mockyard` in its code (comments and the generated page bundle aside).
 */
import { readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ADMIN_BASE, DEVTOOLS_BASE } from '../../src/devtools/paths.js';
import { sourceFiles, tokens } from '../helpers/source-files.js';

const SRC = resolve(import.meta.dirname, '../../src');

/** The string literals in `file`'s code that name a devtools path. */
function devtoolsPathsIn(file: string): string[] {
  return tokens(readFileSync(file, 'utf8')).strings.filter((s) => /(^|[^#\w])\/_mockyard(\/|$|\W)/.test(s));
}

describe('devtools paths (src/devtools/paths.ts)', () => {
  it('are /_mockyard and /_mockyard/api', () => {
    expect(DEVTOOLS_BASE).toBe('/_mockyard');
    expect(ADMIN_BASE).toBe('/_mockyard/api');
  });

  it('are spelled in paths.ts only', () => {
    const spelled = sourceFiles(SRC)
      .filter((f) => !f.includes('.generated.'))
      .filter((f) => relative(SRC, f) !== join('devtools', 'paths.ts'))
      .flatMap((f) => devtoolsPathsIn(f).map((s) => `${relative(SRC, f)}: ${s}`));
    expect(spelled).toEqual([]);
  });
});
