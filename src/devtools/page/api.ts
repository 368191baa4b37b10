/**
 * How the page talks to its host: one `fetch`-shaped function. On the node host (and middleware,
 * Vite plugin) it is the browser's fetch, with `Authorization: Bearer` when the guard asks for a
 * token (given once as `/_mockyard/#token=…`, kept in sessionStorage). In the page host
 * (`mockyard/browser`) it is the app tab's own engines, called in-process.
 */
import { ADMIN_BASE } from '../paths.js';

export type Transport = (path: string, init?: RequestInit) => Promise<Response>;

export const ADMIN = ADMIN_BASE;
const TOKEN_KEY = 'mockyard-devtools-token';

export function httpTransport(): Transport {
  const m = /(?:^#|&)token=([^&]+)/.exec(location.hash);
  if (m) {
    sessionStorage.setItem(TOKEN_KEY, decodeURIComponent(m[1]!));
    history.replaceState(null, '', location.pathname + location.search);
  }
  return (path, init = {}) => {
    const token = sessionStorage.getItem(TOKEN_KEY);
    if (!token || !path.startsWith(ADMIN)) return fetch(path, init);
    const headers = new Headers(init.headers);
    headers.set('Authorization', `Bearer ${token}`);
    return fetch(path, { ...init, headers });
  };
}

/** The JSON body of an answer, or an Error carrying the one error shape's message. */
export async function readJson<T>(res: Response): Promise<T> {
  const text = await res.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    throw new Error(`${res.status}: not JSON`);
  }
  if (!res.ok) {
    const message = (body as { message?: unknown } | null)?.message;
    throw new Error(`${res.status}: ${typeof message === 'string' ? message : res.statusText}`);
  }
  return body as T;
}

export async function getJson<T>(transport: Transport, path: string): Promise<T> {
  return readJson<T>(await transport(path, { headers: { Accept: 'application/json' } }));
}

/** Saves an answer's body as a file (a download), or throws the error body's message. */
export async function download(answer: Response | Promise<Response>, name: string): Promise<void> {
  const res = await answer;
  if (!res.ok) await readJson(res);
  const a = document.createElement('a');
  a.href = URL.createObjectURL(await res.blob());
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
}
