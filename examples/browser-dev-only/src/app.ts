export async function renderApp(): Promise<void> {
  const users = (await (await fetch('/api/users')).json()) as Array<{ name: string }>;
  document.querySelector('#app')!.textContent = users.map((u) => u.name).join(', ');
}
