/** The fake backend for every test file: a mock API over an in-memory filesystem. */
import { createMockApi, memoryFs } from 'mockyard';

export const fs = memoryFs({
  'users/1.json': { id: 1, name: 'Ada', role: 'admin' },
  'users/2.json': { id: 2, name: 'Grace', role: 'dev' },
  'users.json': [
    { id: 1, name: 'Ada', role: 'admin' },
    { id: 2, name: 'Grace', role: 'dev' },
  ],
});

export const api = createMockApi({
  endpointPrefix: '/api',
  fs,
  filters: { GET: { type: 'query-param', filters: [{ key: 'role' }] } },
});
