/**
 * Every surface of the mock API is a folder of one shape (ARCHITECTURE.md, "The shape of a
 * surface"): the assembly's table (src/engine/layers.ts) names each layer with its file, and each
 * folder it names holds
 *   options.ts                 the options the layer reads (declaration, default, validation
 *                              through core/options.ts, the error naming the option),
 *   layer.ts                   its layer factory,
 *   test/engine/<name>/        its own tests, options.test.ts among them,
 * and every layer file the table names opens with a comment holding an `Order:` line: where it
 * sits in the list and why.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const ENGINE = join(ROOT, 'src', 'engine');

/**
 * The layer files the table names: the `(<folder>/<file>.ts` each line of the `layers` list ends
 * with, and the header's "Outside the list:" line (surfaces the assembly builds beside the list).
 */
export function tableLayerFiles(source: string): string[] {
  const out: string[] = [];
  const start = source.indexOf('const layers: Layer[] = [');
  const end = source.indexOf('\n  ];', start);
  const list = start === -1 || end === -1 ? '' : source.slice(start, end);
  for (const line of list.split('\n')) {
    const comment = line.slice(line.indexOf('//') + 2);
    const named = line.includes('//') ? /\(([a-z-]+\/[a-z-]+\.ts)/.exec(comment) : null;
    if (named) out.push(named[1]!);
  }
  const outside = /^ \* Outside the list: (.*)$/m.exec(source);
  for (const m of outside?.[1]!.matchAll(/\b([a-z-]+\/[a-z-]+\.ts)/g) ?? []) out.push(m[1]!);
  return [...new Set(out)];
}

/** What a folder of the table lacks, as sentences (empty: the folder has the shape). */
export function shapeProblems(files: readonly string[], root = ROOT): string[] {
  const problems: string[] = [];
  const folders = [...new Set(files.map((f) => f.slice(0, f.indexOf('/'))))];
  for (const folder of folders) {
    const src = join(root, 'src', 'engine', folder);
    if (!existsSync(join(src, 'options.ts'))) problems.push(`src/engine/${folder}/options.ts is missing (the options the layer reads)`);
    else if (!readFileSync(join(src, 'options.ts'), 'utf8').includes("from '../../core/options.js'")) problems.push(`src/engine/${folder}/options.ts does not validate through core/options.ts`);
    if (!existsSync(join(src, 'layer.ts'))) problems.push(`src/engine/${folder}/layer.ts is missing (the layer factory)`);
    const tests = join(root, 'test', 'engine', folder);
    if (!existsSync(tests) || !readdirSync(tests).some((f) => f.endsWith('.test.ts'))) problems.push(`test/engine/${folder}/ holds no tests`);
    else if (!existsSync(join(tests, 'options.test.ts'))) problems.push(`test/engine/${folder}/options.test.ts is missing (its options' validation)`);
  }
  for (const file of files) {
    const path = join(root, 'src', 'engine', file);
    if (!existsSync(path)) {
      problems.push(`src/engine/${file} (named in layers.ts) does not exist`);
      continue;
    }
    const text = readFileSync(path, 'utf8');
    const header = text.startsWith('/**') ? text.slice(0, text.indexOf('*/')) : '';
    if (!/^ \* Order: .*\b(after|before|first|last)\b/m.test(header)) problems.push(`src/engine/${file}: its opening comment has no " * Order: …" line (where it sits in layers.ts, and why)`);
  }
  return problems;
}

describe('every surface a folder of one shape', () => {
  const table = readFileSync(join(ENGINE, 'layers.ts'), 'utf8');
  const files = tableLayerFiles(table);

  it('reads the layer files from the assembly table', () => {
    expect(files).toContain('handlers/layer.ts');
    expect(files).toContain('files/layer.ts');
    expect(files).toContain('ws/layer.ts'); // outside the list: upgrades
    expect(new Set(files.map((f) => f.slice(0, f.indexOf('/')))).size).toBeGreaterThanOrEqual(15);
  });

  it('each folder the table names has options.ts, layer.ts, its tests and an Order line', () => {
    expect(shapeProblems(files)).toEqual([]);
  });

  it('the table names every folder that has a layer.ts (pipeline/layer.ts is the contract, not a layer)', () => {
    const named = new Set(files.map((f) => f.slice(0, f.indexOf('/'))));
    const withLayer = readdirSync(ENGINE, { withFileTypes: true })
      .filter((d) => d.isDirectory() && d.name !== 'pipeline' && existsSync(join(ENGINE, d.name, 'layer.ts')))
      .map((d) => d.name);
    expect(withLayer.filter((name) => !named.has(name))).toEqual([]);
  });

  it('names what a folder lacks', () => {
    const fake = ['no-such-surface/layer.ts'];
    expect(shapeProblems(fake)).toEqual([
      'src/engine/no-such-surface/options.ts is missing (the options the layer reads)',
      'src/engine/no-such-surface/layer.ts is missing (the layer factory)',
      'test/engine/no-such-surface/ holds no tests',
      'src/engine/no-such-surface/layer.ts (named in layers.ts) does not exist',
    ]);
    expect(tableLayerFiles("/**\n * Outside the list: x (x/layer.ts)\n */\nconst layers: Layer[] = [\n    a, // (a/layer.ts)\n  ];")).toEqual(['a/layer.ts', 'x/layer.ts']);
  });
});
