/** The module under test: plain `fetch` calls with relative URLs, as app code makes them. */
export interface User {
  id: number;
  name: string;
  role: 'admin' | 'dev';
}

export async function listUsers(role?: User['role']): Promise<{ users: User[]; total: number }> {
  const res = await fetch(`/api/users${role ? `?role=${role}` : ''}`);
  if (!res.ok) throw new Error(`GET /api/users: ${res.status}`);
  return { users: (await res.json()) as User[], total: Number(res.headers.get('x-total-count')) };
}

export async function addUser(user: User): Promise<void> {
  const res = await fetch(`/api/users/${user.id}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(user),
  });
  if (!res.ok) throw new Error(`PUT /api/users/${user.id}: ${res.status}`);
}

/** Renders the user list into `root` (the DOM test runs it under happy-dom). */
export async function renderUsers(root: HTMLElement, role?: User['role']): Promise<void> {
  const { users, total } = await listUsers(role);
  root.innerHTML = `<p>${total} users</p><ul>${users.map((u) => `<li>${u.name}</li>`).join('')}</ul>`;
}
