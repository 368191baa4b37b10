/**
 * A user's project folder with mockyard installed as a package (not linked): `userApp()` makes a
 * folder under test-artifacts/ whose `node_modules/mockyard` is a copy of this repository's
 * package.json and dist/ (what `npm install mockyard` puts there), so a Vite dev server treats it
 * as any dependency (pre-bundled unless excluded). mockyard's own dependencies (msw, idb, …)
 * resolve from the repository's node_modules above it. Call `removeUserApps()` after the tests.
 */
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const made: string[] = [];

export async function userApp(files: Record<string, string> = {}): Promise<string> {
  await mkdir(join(repo, 'test-artifacts'), { recursive: true });
  const dir = await mkdtemp(join(repo, 'test-artifacts', 'user-app-'));
  made.push(dir);
  const pkg = join(dir, 'node_modules', 'mockyard');
  await mkdir(pkg, { recursive: true });
  await cp(join(repo, 'package.json'), join(pkg, 'package.json'));
  await cp(join(repo, 'dist'), join(pkg, 'dist'), { recursive: true });
  await writeFile(join(dir, 'package.json'), '{ "name": "user-app", "private": true, "type": "module" }\n');
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(dir, path, '..'), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  return dir;
}

export async function removeUserApps(): Promise<void> {
  await Promise.all(made.splice(0).map((d) => rm(d, { recursive: true, force: true })));
}

/** The code of the fenced block right after `<!-- example: NAME -->` in a Markdown text. */
export function markedBlock(markdown: string, name: string): string {
  const m = new RegExp(`<!-- example: ${name} -->\\n\`\`\`[a-z]*(?: [a-z]+)*\\n([\\s\\S]*?)\`\`\``).exec(markdown);
  if (!m) throw new Error(`no block marked <!-- example: ${name} -->`);
  return m[1]!;
}
