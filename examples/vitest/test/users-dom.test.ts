// @vitest-environment happy-dom
import { expect, it } from 'vitest';
import { renderUsers } from '../src/users.js';

it('renders the list from the mocked API (relative URL resolved against the page)', async () => {
  document.body.innerHTML = '<main></main>';
  const root = document.querySelector('main')!;
  await renderUsers(root, 'dev');
  expect(root.querySelector('p')!.textContent).toBe('1 users');
  expect([...root.querySelectorAll('li')].map((li) => li.textContent)).toEqual(['Grace']);
});
