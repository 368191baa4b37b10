/** @jest-environment ./jsdom-with-fetch.js */
import { createMockApi, memoryFs } from 'mockyard';
import { interceptFetch } from 'mockyard/test';

const fs = memoryFs({ 'users.json': [{ id: 1, name: 'Ada', role: 'admin' }, { id: 2, name: 'Grace', role: 'dev' }] });
const api = createMockApi({ endpointPrefix: '/api', fs, logLevel: 'silent', filters: { GET: { type: 'query-param', filters: [{ key: 'role' }] } } });
let mocked;
beforeEach(async () => { await fs.reset(); mocked = interceptFetch(api); });
afterEach(() => mocked.restore());
afterAll(() => api.close());

test('fetch in jsdom (relative to location)', async () => {
  const res = await fetch('/api/users?role=dev');
  expect(res.headers.get('x-total-count')).toBe('1');
  expect(await res.json()).toEqual([{ id: 2, name: 'Grace', role: 'dev' }]);
  expect(location.href).toMatch(/^http:\/\/localhost/);
});
test('writes in jsdom', async () => {
  const res = await fetch('/api/notes', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}' });
  expect(res.status).toBe(201);
  expect(new TextDecoder().decode(await fs.read('notes.json'))).toBe('{"a":1}');
});
test('XMLHttpRequest in jsdom', async () => {
  const got = await new Promise((resolve) => {
    const x = new XMLHttpRequest();
    x.open('GET', '/api/users?role=admin');
    x.onload = () => resolve([x.status, x.responseText]);
    x.onerror = () => resolve('error');
    x.send();
  });
  expect(got[0]).toBe(200);
  expect(JSON.parse(got[1])).toEqual([{ id: 1, name: 'Ada', role: 'admin' }]);
});
