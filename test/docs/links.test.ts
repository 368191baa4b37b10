/**
 * Every relative link of README.md and docs/*.md resolves: the file or folder exists, and a
 * `#fragment` names a heading of the Markdown file it points to (GitHub's heading ids). Links
 * inside code (fenced blocks, `inline code`) are not links and are skipped; so are links with a
 * scheme (`https:`, `mailto:`).
 */
import { existsSync, statSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { headingIds, relativeLinks } from './markdown-links.js';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const files = ['README.md', ...(await readdir(join(repo, 'docs'))).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];

const ids = new Map<string, Set<string>>();
async function idsOf(path: string): Promise<Set<string>> {
  let found = ids.get(path);
  if (!found) ids.set(path, (found = headingIds(await readFile(path, 'utf8'))));
  return found;
}

describe('the link checker', () => {
  it("gives GitHub's heading ids", () => {
    const md = '# Proxy and record\n## Serving a HAR log (`mockyard --har mock.har`)\n## Admin API (`/_mockyard/api`)\n## routes.json\n## Notes\n## Notes\n## Playwright: `mockyard/playwright`\n## [Linked](x.md) title\n```\n# not a heading\n```\n';
    expect([...headingIds(md)]).toEqual([
      'proxy-and-record',
      'serving-a-har-log-mockyard---har-mockhar',
      'admin-api-_mockyardapi',
      'routesjson',
      'notes',
      'notes-1',
      'playwright-mockyardplaywright',
      'linked-title',
    ]);
  });

  it('finds relative links outside code, with their line', () => {
    const md = 'See [a](a.md#x) and [b](<b c.md>), `[not](code.md)`, [web](https://x.test).\n```md\n[in](block.md)\n```\n![img](pic.png "title")\n';
    expect(relativeLinks(md)).toEqual([
      { target: 'a.md#x', line: 1 },
      { target: 'b c.md', line: 1 },
      { target: 'pic.png', line: 5 },
    ]);
  });
});

describe.each(files)('%s', (file) => {
  it('every relative link resolves to a file, a folder or a heading', async () => {
    const broken: string[] = [];
    for (const { target, line } of relativeLinks(await readFile(join(repo, file), 'utf8'))) {
      const hash = target.indexOf('#');
      const pathPart = decodeURI(hash === -1 ? target : target.slice(0, hash));
      const fragment = hash === -1 ? '' : decodeURIComponent(target.slice(hash + 1));
      const path = pathPart === '' ? join(repo, file) : join(dirname(join(repo, file)), pathPart);
      const where = `${file}:${line} → ${target}`;
      if (relative(repo, path).startsWith('..')) broken.push(`${where}: outside the repository`);
      else if (!existsSync(path)) broken.push(`${where}: no such file`);
      else if (fragment) {
        if (!statSync(path).isFile() || !path.endsWith('.md')) broken.push(`${where}: a #fragment on a file that is not Markdown`);
        else if (!(await idsOf(path)).has(fragment)) broken.push(`${where}: no heading with id "${fragment}"`);
      }
    }
    expect(broken).toEqual([]);
  });
});
