/** Reads and resets the static server's per-path request counts (what reached the network). */
export async function networkCounts(site: string): Promise<Record<string, number>> {
  return (await fetch(`${site}/__requests`)).json() as Promise<Record<string, number>>;
}

export async function resetNetworkCounts(site: string): Promise<void> {
  await fetch(`${site}/__requests`, { method: 'POST' });
}
