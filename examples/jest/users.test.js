import { jest } from '@jest/globals';
import { createMockApi, memoryFs } from 'mockyard';
import { interceptFetch } from 'mockyard/test';

const fs = memoryFs({ 'users.json': [{ id: 1, name: 'Ada' }] });
const api = createMockApi({ endpointPrefix: '/api', fs, logLevel: 'silent', handlers: [{ pattern: '/slow', delay: 50, handle: () => ({ ok: true }) }] });
let mocked;
beforeEach(async () => { await fs.reset(); mocked = interceptFetch(api); });
afterEach(() => { mocked.restore(); jest.useRealTimers(); });
afterAll(() => api.close());

test('relative fetch answered by the engine', async () => {
  const res = await fetch('/api/users');
  expect(await res.json()).toEqual([{ id: 1, name: 'Ada' }]);
});
test('writes', async () => {
  const res = await fetch('/api/users/2', { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{"id":2}' });
  expect(res.status).toBe(201);
  expect(new TextDecoder().decode(await fs.read('users/2.json'))).toBe('{"id":2}');
});
test('fake timers do not deadlock a delay', async () => {
  jest.useFakeTimers();
  expect(await (await fetch('/api/slow')).json()).toEqual({ ok: true });
});
test('unhandled rejects', async () => {
  jest.spyOn(console, 'error').mockImplementation(() => {});
  await expect(fetch('/nope')).rejects.toThrow(/no engine answers/);
});
