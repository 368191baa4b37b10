/**
 * One table for the multipart JSON-part rule, run through every host (test/node/multipart-json-part.test.ts:
 * the node host, a real Vite dev server, interceptFetch; test/e2e/multipart.e2e.ts: Chromium through
 * the page worker). A part sent with `Content-Type: application/json` (or `+json`) and no filename
 * is a JSON value: stored as JSON by PUT, feeding body filters and pagination on POST, parsed in a
 * handler's `req.body`; not JSON → 400 naming the field. Bodies are built by hand: a `Blob`
 * appended to a FormData is sent as a file (`filename="blob"`). No Node built-in and no engine code: the page imports it beside `mockyard/browser`.
 */
import type { MockApiOptions } from '../../src/engine/mock-api-options.js';
import type { Vfs } from '../../src/vfs/types.js';

const BOUNDARY = 'mockyard-json-part';

/** A multipart body: each part `[name, value, contentType?]`, never a filename. */
function multipart(parts: Array<[string, string, string?]>): { body: string; headers: Record<string, string> } {
  const body = parts.map(([name, value, type]) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n${type ? `Content-Type: ${type}\r\n` : ''}\r\n${value}\r\n`).join('') + `--${BOUNDARY}--\r\n`;
  return { body, headers: { 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}` } };
}

/** The files every host starts from (give them to the host's own `memoryFs`). */
export const MULTIPART_TABLE_FILES = { 'users.json': [{ id: 1, role: 'admin' }, { id: 2, role: 'dev' }, { id: 3, role: 'dev' }], 'profile.json': {} };

/** The engine every host serves, on `fs` (a fresh `memoryFs(MULTIPART_TABLE_FILES)`). */
export function multipartTableOptions(fs: Vfs): MockApiOptions {
  return {
    endpointPrefix: '/api',
    fs,
    filters: { POST: { type: 'body', root: 'where', filters: [{ key: 'role', comparison: 'eq' }] } },
    pagination: { POST: { type: 'body', root: 'page', limit: 'limit', skip: 'skip' } },
    handlers: [{ pattern: '/echo', method: 'POST', handle: (req) => ({ body: req.body, files: req.files.length }) }],
    logLevel: 'silent',
  };
}

interface Case {
  name: string;
  method: 'POST' | 'PUT';
  path: string;
  parts: Array<[string, string, string?]>;
  /** Read after the request (what was stored). */
  then?: string;
}

const CASES: Case[] = [
  { name: 'PUT stores JSON parts as JSON beside text fields', method: 'PUT', path: '/api/profile', parts: [['name', 'ann'], ['meta', '{"tags":["a","b"],"n":1}', 'application/json'], ['ld', '{"x":true}', 'application/ld+json; charset=utf-8']], then: '/api/profile' },
  { name: 'POST on an array: JSON parts feed body filters and pagination', method: 'POST', path: '/api/users', parts: [['where', '{"role":"dev"}', 'application/json'], ['page', '{"limit":1,"skip":1}', 'application/json']] },
  { name: 'POST creates a file holding the JSON value', method: 'POST', path: '/api/settings', parts: [['title', 't'], ['meta', '[1,2]', 'application/json']], then: '/api/settings' },
  { name: "a handler's req.body gets the value; a text part stays text", method: 'POST', path: '/api/echo', parts: [['meta', '{"a":1}', 'application/json'], ['plain', '{"a":1}'], ['meta', '2', 'application/json']] },
  { name: 'a JSON part that is not JSON is a 400 naming the field; nothing stored', method: 'PUT', path: '/api/profile', parts: [['meta', '{oops', 'application/json']], then: '/api/profile' },
];

export interface Observed {
  name: string;
  status: number;
  body: unknown;
  stored?: unknown;
}

/** What every host answers (a write's body reduced to 'ok', an error's message to whether it names the field). */
export const MULTIPART_TABLE_EXPECTED: Observed[] = [
  { name: CASES[0]!.name, status: 200, body: 'ok', stored: { name: 'ann', meta: { tags: ['a', 'b'], n: 1 }, ld: { x: true } } },
  { name: CASES[1]!.name, status: 200, body: [{ id: 3, role: 'dev' }] },
  { name: CASES[2]!.name, status: 201, body: 'ok', stored: { title: 't', meta: [1, 2] } },
  { name: CASES[3]!.name, status: 200, body: { body: { meta: [{ a: 1 }, 2], plain: '{"a":1}' }, files: 0 } },
  { name: CASES[4]!.name, status: 400, body: 'names "meta"', stored: { name: 'ann', meta: { tags: ['a', 'b'], n: 1 }, ld: { x: true } } },
];

/** Runs the table in order against `base` with `fetchFn` (the page's fetch, Node's fetch, an intercepted fetch). */
export async function runMultipartTable(base: string, fetchFn: typeof fetch = fetch): Promise<Observed[]> {
  const out: Observed[] = [];
  for (const c of CASES) {
    const res = await fetchFn(`${base}${c.path}`, { method: c.method, ...multipart(c.parts) });
    const text = await res.text();
    let body: unknown = text;
    if (res.status === 400) body = (JSON.parse(text) as { message: string }).message.includes('multipart field "meta"') ? 'names "meta"' : text;
    else if (c.then !== undefined) body = 'ok';
    else body = JSON.parse(text);
    const row: Observed = { name: c.name, status: res.status, body };
    if (c.then !== undefined) row.stored = await (await fetchFn(`${base}${c.then}`)).json();
    out.push(row);
  }
  return out;
}
