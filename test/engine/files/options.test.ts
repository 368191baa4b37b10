/**
 * The options of the files surface: `fsDir`, `fs`, `root` and `db` (src/engine/files/options.ts). A
 * wrong value stops start-up with an OptionsError naming the option (core/options.ts), word for
 * word as below.
 */
import { describe, expect, it } from 'vitest';
import { optionsError } from '../../helpers/options-error.js';

describe('files options', () => {
  it.each([
    [{ fsDir: 42 }, 'mockyard: option "mock.fsDir" must be a string or null (got 42)'],
    [{ fs: {} }, 'mockyard: option "mock.fs" must be a Vfs (memoryFs(), diskFs(dir), …) (got {})'],
    [{ fsDir: '../up' }, 'mockyard: option "mock.fsDir" must be a folder inside "fs" without "..", "\\" or NUL (got "../up")'],
    [{ db: 'db.txt' }, 'mockyard: option "mock.db" must name a .json file (got "db.txt")'],
    [{ db: 'db.json', fsDir: 'mocks' }, 'mockyard: option "mock.db" cannot be combined with fsDir: the db file is the folder'],
    [{ root: '' }, 'mockyard: option "mock.root" must be a non-empty string (got "")'],
    [{ db: '../db.json' }, 'mockyard: option "mock.db" must be a file inside "fs" without "..", "\\" or NUL (got "../db.json")'],
  ] as Array<[Record<string, unknown>, string]>)('%j is refused, naming the option', (options, message) => {
    expect(optionsError(options)).toBe(message);
  });
});
