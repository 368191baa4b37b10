/**
 * THE rule for writes when a proxy stands behind file mode (`mock.proxy`, or browser mode with a
 * proxy: the worker lets the request go to the network). A write stays in the mock files when it
 * names something the mocks hold, and goes on to the real API otherwise:
 *   - any write whose target resolves to a file (the lookup GET uses: `users/1` → `users/1.json`)
 *     stays local: PUT replaces it, PATCH patches it, DELETE removes it, POST answers as file
 *     mode does (409, or a POST query);
 *   - PATCH and DELETE of a target with no file pass, as a GET of it does: the thing they change
 *     lives in the real API;
 *   - POST and PUT of a target with no file create it locally when its collection is mocked
 *     (the folder the new file goes into resolves to a file or is a folder: `POST /users/7` or
 *     `POST /users/` with `users.json` or `users/`), and pass otherwise (`POST /orders` without `orders.json` or `orders/`).
 * So a team mocks some resources and edits them locally while every write to a resource it did
 * not mock reaches the backend, as a Mockoon or json-server user expects from "mock a few
 * endpoints, proxy the rest". Without a proxy, file mode answers every write as before.
 */
import { parentOf } from '../../vfs/path.js';
import { inFsDir, type FsCall, type FsEnv } from '../file-cache/fs-call.js';

export const WRITE_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Whether a write names nothing the mock files hold (then file mode passes it on). */
export async function isUnmockedWrite(call: FsCall, env: FsEnv, method: string): Promise<boolean> {
  if ((await env.cache.lookup(call.key, call)) !== null) return false;
  if (method === 'PATCH' || method === 'DELETE') return true;
  // The collection: the folder a new file goes into (`users` for `users/7`, and for `users/`).
  const collection = call.trailingSlash ? call.rel : parentOf(call.rel);
  if (collection === '') return true;
  const trimmed = call.key.replace(/\/+$/, '');
  const collectionKey = call.trailingSlash ? trimmed : trimmed.slice(0, Math.max(0, trimmed.lastIndexOf('/')));
  if ((await env.cache.lookup(collectionKey, { rel: collection, trailingSlash: false })) !== null) return false;
  return (await env.vfs.stat(inFsDir(env, collection)))?.kind !== 'dir';
}
