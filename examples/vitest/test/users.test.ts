import { expect, it } from 'vitest';
import { addUser, listUsers } from '../src/users.js';
import { fs } from './mocks.js';
import { mocked } from './setup.js';

it('lists users with a filter', async () => {
  expect(await listUsers('admin')).toEqual({ users: [{ id: 1, name: 'Ada', role: 'admin' }], total: 1 });
});

it('writes a user: assert on what the code wrote', async () => {
  await addUser({ id: 3, name: 'Linus', role: 'dev' });
  const written = JSON.parse(new TextDecoder().decode(await fs.read('users/3.json')));
  expect(written).toEqual({ id: 3, name: 'Linus', role: 'dev' });
  expect(mocked.requests.map((r) => `${r.method} ${new URL(r.url).pathname}`)).toEqual(['PUT /api/users/3']);
});

it('starts from the seed again (the previous test wrote users/3.json)', async () => {
  expect(await fs.stat('users/3.json')).toBeNull();
});
