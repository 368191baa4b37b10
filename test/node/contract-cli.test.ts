/** `mockyard export`'s arguments and sources that cannot be exported: a clear message and exit code, never a stack. */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli-run.js';
import { makeTempDir, removeTempDirs } from '../helpers/temp-dir.js';

afterEach(removeTempDirs);

describe('mockyard export: bad input', () => {
  it('usage errors exit 2, unreadable sources exit 1, each saying what is wrong', async () => {
    const root = await makeTempDir();
    await writeFile(join(root, 'db.json'), '{"todos":[{"id":1}]}');
    await writeFile(join(root, 'bad.json'), '{"a": [1,');
    await writeFile(join(root, 'list.json'), '[1, 2]');
    await writeFile(join(root, 'notes.yaml'), 'a: 1\n');
    const cases: Array<[string[], number, RegExp]> = [
      [['export', 'db.json'], 2, /give --types FILE/],
      [['export', 'db.json', '--openapi', 'api.txt'], 2, /--openapi writes \.json or \.yaml/],
      [['export', 'db.json', '--types', 'a.d.ts', '--from-har', 'x.har'], 2, /--from-har adds observed traffic/],
      [['export', 'db.json', 'more.json', '--types', 'a.d.ts'], 2, /give one source/],
      [['export', 'db.json', '--types', 'a.d.ts', '--prefix', 'api'], 2, /--prefix must start with/],
      [['export', 'missing.json', '--types', 'a.d.ts'], 1, /missing\.json: no such file or folder/],
      [['export', 'bad.json', '--types', 'a.d.ts'], 1, /bad\.json is not valid JSON/],
      [['export', 'list.json', '--types', 'a.d.ts'], 1, /must hold a JSON object whose keys are the resources/],
      [['export', 'notes.yaml', '--types', 'a.d.ts'], 1, /is not an OpenAPI document/],
      [['export', 'db.json', '--openapi', 'a.yaml', '--from-har', 'missing.har'], 1, /missing\.har/],
    ];
    for (const [argv, code, message] of cases) {
      const r = await runCli(argv, root);
      expect({ argv, code: r.code }).toEqual({ argv, code });
      expect(r.err).toMatch(message);
      expect(r.err).not.toMatch(/\n\s+at /);
    }
  });
});
