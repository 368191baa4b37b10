/**
 * `mockyard import openapi.yaml --fs-dir mocks [--overwrite] [--seed N]`: reads, validates and
 * dereferences the document with @readme/openapi-parser (Swagger 2.0, OpenAPI 3.0 and 3.1; JSON
 * or YAML; maintained, Node 20; @apidevtools/swagger-parser 13 needs Node 22), plans the files
 * and writes them through the disk Vfs (`create`: an existing file is kept unless `overwrite`;
 * atomic writes; path safety). Collections (openapi-backend/population.ts) become one list file
 * each holding the population `mockyard openapi.yaml` serves (the same seed, the same items);
 * other GET operations one file each (src/engine/openapi/example-files.ts). Returns the summary.
 */
import { mkdir } from 'node:fs/promises';
import { compileErrors, dereference, validate } from '@readme/openapi-parser';
import { planImport, type ImportPlan } from '../engine/openapi/example-files.js';
import { generatePopulation } from '../engine/openapi-backend/population.js';
import { loadDocumentFile } from './openapi-document.js';
import { diskFs } from '../vfs/disk.js';
import { isVfsError } from '../vfs/types.js';

export interface ImportResult {
  plan: ImportPlan;
  written: string[];
  kept: string[];
  lines: string[];
}

/** Thrown for a document that is not valid OpenAPI / Swagger (message: the parser's readable list). */
export class InvalidDocumentError extends Error {}

export async function importOpenApi(file: string, dir: string, options: { overwrite?: boolean; seed?: number | string } = {}): Promise<ImportResult> {
  const result = await validate(file, { validate: { errors: { colorize: false } } });
  if (!result.valid) throw new InvalidDocumentError(`${file} is not a valid OpenAPI document:\n${compileErrors(result)}`);
  const doc = (await dereference(file)) as unknown as Record<string, unknown>;
  const plan = planImport(doc);
  // Collections: their population replaces the list's and the item's example files.
  const population = await generatePopulation(await loadDocumentFile(file), { seed: options.seed });
  const replaced = new Set(population.flatMap((p) => p.operations));
  const taken = new Set(population.map((p) => p.rel));
  plan.files = [
    ...population.map((p) => ({ operation: p.operations.join(' + '), rel: p.rel, value: p.items, source: 'generated' as const, population: p.items.length })),
    ...plan.files.filter((f) => !replaced.has(f.operation) && !taken.has(f.rel)),
  ];
  await mkdir(dir, { recursive: true });
  const vfs = diskFs(dir);
  const written: string[] = [];
  const kept: string[] = [];
  const lines: string[] = [`${plan.title || file} (${plan.version}): ${plan.files.length} file(s) from its GET operations → ${dir}`];
  for (const f of plan.files) {
    const text = `${JSON.stringify(f.value, null, 2)}\n`;
    try {
      if (options.overwrite) await vfs.write(f.rel, text);
      else await vfs.create(f.rel, text);
      written.push(f.rel);
      const params = f.params ? `; template → collection item (${Object.entries(f.params).map(([k, v]) => `${k}=${v}`).join(', ')})` : '';
      const count = (f as { population?: number }).population;
      lines.push(count !== undefined ? `  wrote ${f.rel}  ← ${f.operation} (a collection: ${count} items, as \`mockyard ${file.split(/[\\/]/).pop()}\` serves them)` : `  wrote ${f.rel}  ← ${f.operation} (${f.source}${params})`);
    } catch (err) {
      if (!isVfsError(err, 'EEXIST')) throw err;
      kept.push(f.rel);
      lines.push(`  kept  ${f.rel}  (exists; --overwrite replaces it)`);
    }
  }
  for (const s of plan.skipped) lines.push(`  skipped ${s.operation}: ${s.reason}`);
  lines.push(`${written.length} written, ${kept.length} kept, ${plan.skipped.length} skipped.`);
  if (plan.basePath) lines.push(`The document's base path is ${plan.basePath}: serve with --prefix ${plan.basePath} to match its URLs.`);
  if (plan.skipped.some((s) => !s.operation.startsWith('GET '))) {
    lines.push('Writes: file mode answers PUT/PATCH/DELETE on these files; to POST into a list and read its items by id (`/pets/1` from pets.json), serve with --preset json-server.');
  }
  return { plan, written, kept, lines };
}
