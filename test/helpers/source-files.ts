/**
 * Reading src/ as text, for the tests that check the house rules over every file
 * (test/import-direction.test.ts, test/core/version.test.ts, test/devtools/paths.test.ts,
 * test/comments.test.ts).
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Every .ts/.tsx file under `dir` (declaration files aside). */
export function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) sourceFiles(path, out);
    else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

/**
 * The code without comments, each string literal replaced by `'#n'` (its text is `strings[n]`),
 * so that neither a comment nor a string that mentions an import reads as one.
 */
export function tokens(code: string): { code: string; strings: string[] } {
  const strings: string[] = [];
  let out = '';
  let i = 0;
  while (i < code.length) {
    const c = code[i]!;
    const next = code[i + 1];
    if (c === '/' && next === '/') {
      while (i < code.length && code[i] !== '\n') i++;
    } else if (c === '/' && next === '*') {
      const end = code.indexOf('*/', i + 2);
      i = end === -1 ? code.length : end + 2;
    } else if (c === "'" || c === '"' || c === '`') {
      let j = i + 1;
      while (j < code.length && code[j] !== c) j += code[j] === '\\' ? 2 : 1;
      out += `'#${strings.push(code.slice(i + 1, j)) - 1}'`;
      i = j + 1;
    } else {
      out += c;
      i++;
    }
  }
  return { code: out, strings };
}

