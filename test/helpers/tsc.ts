/**
 * The project's TypeScript (the native `tsc` of TypeScript 7, which has no compiler API) run on a
 * small project of files written to a temp folder: `typecheck(dir, files)` writes them with a
 * strict tsconfig in which `mockyard` and its entries resolve to the built package's
 * declarations (dist/), and resolves with tsc's exit code and output.
 */
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');
const TSC = join(ROOT, 'node_modules/.bin/tsc');

export async function typecheck(dir: string, files: Record<string, string>): Promise<{ code: number; output: string }> {
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
  const entries = ['', 'node', 'test', 'playwright', 'browser'];
  const paths = Object.fromEntries(entries.map((e) => [`mockyard${e ? `/${e}` : ''}`, [join(ROOT, 'dist', e ? `${e}/index.d.ts` : 'index.d.ts')]]));
  const tsconfig = {
    compilerOptions: {
      target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', lib: ['ES2023', 'DOM', 'DOM.Iterable'],
      strict: true, noEmit: true, skipLibCheck: true, types: ['node'], typeRoots: [join(ROOT, 'node_modules/@types')], paths,
    },
    include: Object.keys(files).filter((f) => f.endsWith('.ts')),
  };
  await writeFile(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2));
  return new Promise((res) => {
    execFile(TSC, ['-p', join(dir, 'tsconfig.json')], { cwd: dir }, (err, stdout, stderr) => res({ code: err ? ((err as { code?: number }).code ?? 1) : 0, output: `${stdout}${stderr}` }));
  });
}
