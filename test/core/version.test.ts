/**
 * One version module (src/core/version.ts): the collector's ping, the recorder's HAR creator and
 * the CLI (`--version`, its banner, the home page) all read VERSION; nothing else reads the
 * package's own package.json for it.
 */
import { readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { VERSION } from '../../src/core/version.js';
import { sourceFiles } from '../helpers/source-files.js';

const SRC = resolve(import.meta.dirname, '../../src');

describe('the package version (core/version.ts)', () => {
  it('equals package.json version', () => {
    const pkg = JSON.parse(readFileSync(resolve(SRC, '../package.json'), 'utf8')) as { version: string };
    expect(VERSION).toBe(pkg.version);
  });

  it('is read from core/version.ts only: no file reads our own package.json', () => {
    const readers = sourceFiles(SRC).filter((f) => !f.includes('.generated.')).filter((f) => /['"`](?:\.\.?\/)+package\.json['"`]/.test(readFileSync(f, 'utf8')));
    expect(readers.map((f) => relative(SRC, f))).toEqual([]);
  });
});
