/**
 * Comments explain the code, never its history: no source or test file refers to the project's
 * issue tracker ("issue 15 item 7", "issue #24"), which a reader of the code cannot see. A reference to
 * another project's tracker names that project (`porsager/postgres issues 1154`) and is kept.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');

function files(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules' && entry.name !== 'fixtures') files(path, out);
    } else if (/\.(tsx?|mjs|js|md)$/.test(entry.name) && !entry.name.includes('.generated.')) out.push(path);
  }
  return out;
}

/** References to this project's issues in `text` ("issue 15", "issues 10 and 11", "issue #24"). */
export function ownIssueReferences(text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(/(\S+\s+)?\b(issues?\s+#?\d+)/gi)) {
    if (m[1] !== undefined && /[\w.-]+\/[\w.-]+\s+$/.test(m[1])) continue; // another project's: owner/repo issues N
    found.push(m[2]!);
  }
  return found;
}

describe('comments explain the code, not its history', () => {
  it('reads references to our issues, and not those of another project', () => {
    expect(ownIssueReferences('a missing fsDir (issue 15 item 11); see Issue #24')).toEqual(['issue 15', 'Issue #24']);
    expect(ownIssueReferences('a crash of postgres.js (porsager/postgres issues 1066, 1154)')).toEqual([]);
    expect(ownIssueReferences('an issue with 3 parts, issues of the past')).toEqual([]);
  });

  it('no file in src/ or test/ refers to an issue of this project', () => {
    const self = resolve(import.meta.filename);
    const hits = [...files(join(ROOT, 'src')), ...files(join(ROOT, 'test'))].filter((f) => f !== self).flatMap((f) =>
      readFileSync(f, 'utf8')
        .split('\n')
        .flatMap((line, i) => ownIssueReferences(line).map((r) => `${relative(ROOT, f)}:${i + 1}: ${r}`)),
    );
    expect(hits).toEqual([]);
  });
});
