/**
 * Where the backend runs: in the page (startWorker, files on IndexedDB) or on the node host
 * (the `mockyard` CLI with playground/mockyard.config.mjs, reached through the dev server's
 * proxy on the same paths). The app code below never knows which: same URLs, same engine.
 */
import type { PageWorker } from 'mockyard/browser';

/**
 * Whether this build has the in-page backend: the dev server always; a production build only
 * with VITE_MOCKYARD_IN_PAGE=on (the e2e suite's). Vite replaces both at build time, so in a
 * production build the dynamic import below is dead code and mockyard/msw are not bundled.
 */
const inPageBuilt = import.meta.env.DEV || import.meta.env.VITE_MOCKYARD_IN_PAGE === 'on';

export type HostKind = 'sw' | 'node';
const KEY = 'mockyard-playground-host';

export function chosenHost(): HostKind {
  const fromUrl = new URLSearchParams(location.search).get('host');
  if (fromUrl === 'sw' || fromUrl === 'node') return fromUrl;
  if (!inPageBuilt) return 'node';
  return localStorage.getItem(KEY) === 'node' ? 'node' : 'sw';
}

export function switchHost(kind: HostKind): void {
  localStorage.setItem(KEY, kind);
  const url = new URL(location.href);
  url.searchParams.delete('host');
  location.replace(url);
}

export async function startHost(kind: HostKind): Promise<{ worker?: PageWorker; label: string }> {
  if (kind === 'sw') {
    if (!inPageBuilt) throw new Error('this build has no in-page backend (production build): use the node host');
    const { startInPage } = await import('./in-page.js');
    const worker = await startInPage();
    return { worker, label: 'service worker · IndexedDB' };
  }
  // Node host: make sure no earlier worker session answers for this page.
  const reg = await navigator.serviceWorker?.getRegistration();
  if (navigator.serviceWorker?.controller && reg) await reg.unregister();
  const ping = await fetch('/_tracker/ping').catch(() => null);
  if (!ping?.ok) throw new Error('node host not reachable — run `npm start` (mockyard CLI on :3000)');
  const body = (await ping.json()) as { version?: string };
  return { label: `node host · mockyard ${body.version ?? ''}`.trim() };
}
