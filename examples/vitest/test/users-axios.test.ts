import axios from 'axios';
import { expect, it } from 'vitest';

// axios in vitest's node environment uses its Node adapter (node:http): interceptFetch answers
// it from the same mocks as fetch, and refuses what no engine answers (onUnhandled: 'error').
it('answers axios from the mocks', async () => {
  const res = await axios.get('http://localhost/api/users', { params: { role: 'dev' } });
  expect(res.data).toEqual([{ id: 2, name: 'Grace', role: 'dev' }]);
});

it('refuses what no engine answers instead of going to the network', async () => {
  await expect(axios.get('http://localhost/elsewhere')).rejects.toThrow(/no engine answers GET http:\/\/localhost\/elsewhere/);
});
