/** `mockyard export`'s arguments and sources that cannot be exported: a clear message and exit code, never a stack. */
import { readFile, writeFile } from 'node:fs/promises';
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

describe('mockyard export --config', () => {
  it("takes the config's relations, prefix, WebSocket handlers and GraphQL switch", async () => {
    const root = await makeTempDir();
    await writeFile(join(root, 'db.json'), JSON.stringify({ users: [{ id: 'u1', name: 'Ada' }], notes: [{ id: 1, author: 'u1', text: 'x' }] }));
    await writeFile(
      join(root, 'mockyard.config.mjs'),
      "export default { mock: { endpointPrefix: '/v2', store: { relations: { notes: { author: 'users' } } }, graphql: false, enableWs: true, wsHandlers: [{ pattern: '/live', onMessage() {} }] } };\n",
    );
    const r = await runCli(['export', 'db.json', '--config', 'mockyard.config.mjs', '--types', 'api.d.ts', '--openapi', 'api.json'], root);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(await readFile(join(root, 'api.d.ts'), 'utf8')).toContain('  author: User["id"];'); // declared, not by convention
    const doc = JSON.parse(await readFile(join(root, 'api.json'), 'utf8'));
    expect(doc.servers).toEqual([{ url: '/v2' }]);
    expect(doc['x-mockyard-websockets']).toEqual([{ pattern: '/v2/live' }]);
    expect(doc['x-mockyard-graphql']).toBeUndefined();
    expect(doc.components.schemas.Note.properties.author['x-mockyard-relation']).toBe('users');
    // Without the config: no declared relation, GraphQL named.
    await runCli(['export', 'db.json', '--types', 'plain.d.ts', '--openapi', 'plain.json'], root);
    expect(await readFile(join(root, 'plain.d.ts'), 'utf8')).toContain('  author: string;');
    expect(JSON.parse(await readFile(join(root, 'plain.json'), 'utf8'))['x-mockyard-graphql']).toEqual(expect.objectContaining({ path: '/graphql' }));
  });
});
