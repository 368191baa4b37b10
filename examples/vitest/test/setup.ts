/** vitest setupFiles: intercept fetch for every test, restore the seed before each one. */
import { afterAll, beforeEach } from 'vitest';
import { interceptFetch } from 'mockyard/test';
import { api, fs } from './mocks.js';

const mocked = interceptFetch(api);

beforeEach(async () => {
  await fs.reset(); // what one test wrote never leaks into the next
  mocked.requests.length = 0;
});

afterAll(async () => {
  mocked.restore();
  await api.close();
});

export { mocked };
