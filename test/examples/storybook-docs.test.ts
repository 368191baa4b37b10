/**
 * docs/storybook.md shows examples/storybook as a user copies it: each `<!-- file: … -->` block is
 * that file verbatim (the Chromium suite, test/e2e/storybook.e2e.ts, builds and runs those files).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const repo = fileURLToPath(new URL('../../', import.meta.url));

it('docs/storybook.md shows the preview file and the stories of examples/storybook verbatim', async () => {
  const text = await readFile(join(repo, 'docs/storybook.md'), 'utf8');
  const blocks = [...text.matchAll(/<!-- file: (examples\/storybook\/[^ ]+) -->\n```ts\n([\s\S]*?)```/g)];
  expect(blocks.map((b) => b[1])).toEqual(['examples/storybook/.storybook/preview.ts', 'examples/storybook/src/ItemList.stories.tsx']);
  for (const [, file, code] of blocks) expect(code, file).toBe(await readFile(join(repo, file!), 'utf8'));
});
