/**
 * The preset hints (src/engine/preset-hints/layer.ts) through `api.handle`, what every host calls
 * (the CLI's default is in test/node/cli-default-preset.test.ts): in the spec's file mode a
 * 404 for `<array>/<id>` names the json-server preset; with collections on (the preset) or a
 * proxy behind, the layer is not in the list.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createMockApi, type MockApi } from '../../../src/engine/create-mock-api.js';
import { memoryFs } from '../../../src/vfs/memory.js';
import { req, see } from '../../helpers/engine-request.js';

const apis: MockApi[] = [];
afterEach(async () => {
  await Promise.all(apis.splice(0).map((a) => a.close()));
});

function api(extra: Record<string, unknown> = {}): MockApi {
  const a = createMockApi({ endpointPrefix: '/api', fs: memoryFs({ 'todos.json': [{ id: 1 }], 'note.json': { a: 1 } }), logLevel: 'silent', ...extra });
  apis.push(a);
  return a;
}

describe('preset hints', () => {
  it('a 404 for <array>/<id> carries a hint naming the preset; other 404s do not', async () => {
    const a = api();
    expect(a.layers.at(-1)).toBe('preset-hints');
    const missing = await see(await a.handle(req('GET', '/api/todos/2')));
    expect(missing.status).toBe(404);
    expect(missing.json).toMatchObject({ message: 'Not Found', hint: expect.stringMatching(/preset: 'json-server'/) });
    const plain = await see(await a.handle(req('GET', '/api/nothing/2')));
    expect(plain.status).toBe(404);
    expect(plain.json).not.toHaveProperty('hint');
  });

  it('is not in the list with the preset (collections answer the item route)', async () => {
    const a = api({ preset: 'json-server' });
    expect(a.layers).not.toContain('preset-hints');
    expect((await see(await a.handle(req('GET', '/api/todos/1')))).json).toEqual({ id: 1 });
  });
});
