/**
 * THE format of recordings in the mock folder: `<name>@recorded.json` next to where the lookup
 * finds `<name>` (`users@recorded.json` for `/api/users`, `users/7@recorded.json` for
 * `/api/users/7`, `index@recorded.json` for the prefix itself or a path ending with `/`). One file
 * per path holds every answer recorded for it, whatever the method, query, body or status:
 *
 *   { "recorded": [
 *     { "request": { "method": "GET", "query": "page=2", "origin": "https://api.example.com" },
 *       "response": { "status": 200, "headers": { "content-type": "application/json", "x-total-count": "3" },
 *                     "file": "users@page=2.json" } },
 *     { "request": { "method": "POST", "body": { "name": "Ann" } },
 *       "response": { "status": 201, "headers": { "location": "/api/users/9" }, "body": { "id": 9, "name": "Ann" } } },
 *     { "request": { "method": "GET", "query": "" },
 *       "response": { "status": 404, "body": { "error": "no such user" } } } ] }
 *
 *   request:  `method` (required), `query` (the query string, any parameter order; '' or absent:
 *             none), one of `body` (JSON, compared canonically) / `text` / `base64` (writes: the
 *             body the request must carry; absent: any body), `origin` (the server it was
 *             recorded from: where the answer names it, in `Link`/`Location`/`Content-Location`
 *             or a text body, the replay names the mock instead, replay/origin-rewrite.ts;
 *             absent, as in recordings made before it was kept: replayed as recorded);
 *   response: `status` (required), `statusText`, `headers` (name → value), one of `body` (JSON
 *             value, served as JSON text) / `text` / `base64` / `file` (a file in the same folder,
 *             served byte for byte: a recorded 2xx GET keeps its body where the plain lookup finds
 *             it, `users.json`, so editing that file edits the answer).
 *
 * `@` never occurs in a canonical query's file name part (`users@page=2.json` names always hold
 * `=`), so `<name>@recorded.json` is never a query variant; and the plain lookup of `<name>`
 * looks at `<name>.<ext>` names only, so it never serves a recording as a body.
 */
import { base64ToBytes, bytesToBase64 } from '../../core/base64.js';
import { isHeaderName, isHeaderValue } from '../../core/header-name.js';
import { requestPathToVfs } from '../../vfs/path.js';
import { canonicalQuery } from '../file-cache/query-variant.js';
import { bodyKey, jsonBodyKey } from './body-key.js';
import { keepsHeader } from './kept-headers.js';
import { sendableStatusText, type ReplayEntry } from './entries.js';
import { isObj } from '../../core/json-object.js';

/** An http(s) origin written as the URL standard serialises it (`https://api.example.com:8443`). */
function isOrigin(v: unknown): v is string {
  if (typeof v !== 'string') return false;
  try {
    const url = new URL(v);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === v;
  } catch {
    return false;
  }
}

export const RECORDING_MARK = '@recorded';
export const RECORDING_SUFFIX = `${RECORDING_MARK}.json`;

export interface RecordingLocation {
  /** The folder (below fsDir) holding the recording and its body files. */
  dir: string;
  /** The name before `@` (what the folder's variant index lists). */
  stem: string;
  /** The recording's path below fsDir. */
  file: string;
}

/** Where a request path's recordings live; HttpError 400 for an unsafe path. */
export function recordingLocation(subPath: string): RecordingLocation {
  const { path, trailingSlash } = requestPathToVfs(subPath);
  if (path === '' || trailingSlash) return { dir: path, stem: 'index', file: `${path === '' ? '' : `${path}/`}index${RECORDING_SUFFIX}` };
  const slash = path.lastIndexOf('/');
  const name = path.slice(slash + 1);
  const at = name.indexOf('@');
  return { dir: slash === -1 ? '' : path.slice(0, slash), stem: at > 0 ? name.slice(0, at) : name, file: `${path}${RECORDING_SUFFIX}` };
}

export interface RecordedBody {
  body?: unknown;
  text?: string;
  base64?: string;
}
export interface RecordedRequest extends RecordedBody {
  method: string;
  query?: string;
  origin?: string;
}
export interface RecordedResponse extends RecordedBody {
  status: number;
  statusText?: string;
  headers?: Record<string, string>;
  file?: string;
}
export interface RecordedExchange {
  request: RecordedRequest;
  response: RecordedResponse;
}
export interface RecordingDocument {
  recorded: RecordedExchange[];
}

const encoder = new TextEncoder();

/** The bytes of a recorded body (`body` as JSON text), or undefined when none is given. */
function bodyBytes(b: RecordedBody, where: string): Uint8Array | undefined {
  const given = ['body', 'text', 'base64'].filter((k) => k in b && (b as Record<string, unknown>)[k] !== undefined);
  if (given.length > 1) throw new Error(`${where} has ${given.join(' and ')}: give one`);
  if (b.body !== undefined) return encoder.encode(JSON.stringify(b.body));
  if (b.text !== undefined) {
    if (typeof b.text !== 'string') throw new Error(`${where}.text must be a string`);
    return encoder.encode(b.text);
  }
  if (b.base64 !== undefined) {
    if (typeof b.base64 !== 'string') throw new Error(`${where}.base64 must be a string`);
    try {
      return base64ToBytes(b.base64);
    } catch {
      throw new Error(`${where}.base64 is not base64`);
    }
  }
  return undefined;
}

/** The body key a recorded request must match (undefined: any body). */
export function recordedRequestKey(r: RecordedBody): string | undefined {
  if (r.body !== undefined) return jsonBodyKey(r.body);
  const bytes = bodyBytes(r, 'request');
  return bytes === undefined ? undefined : bodyKey(bytes);
}

/** Validates a recording's text; the replay entries in recorded order. Throws an Error naming what is wrong. */
export function parseRecording(bytes: Uint8Array): ReplayEntry[] {
  let doc: unknown;
  try {
    doc = JSON.parse(new TextDecoder().decode(bytes));
  } catch (err) {
    throw new Error(`not JSON: ${(err as Error).message}`);
  }
  if (!isObj(doc) || !Array.isArray(doc.recorded)) throw new Error('must be an object { "recorded": [ … ] }');
  return doc.recorded.map((x: unknown, i: number) => {
    const at = `recorded[${i}]`;
    if (!isObj(x) || !isObj(x.request) || !isObj(x.response)) throw new Error(`${at} must be { "request": { … }, "response": { … } }`);
    const req = x.request as unknown as RecordedRequest;
    const res = x.response as unknown as RecordedResponse;
    if (typeof req.method !== 'string' || !/^[A-Za-z]+$/.test(req.method)) throw new Error(`${at}.request.method must be a method name`);
    if (req.query !== undefined && typeof req.query !== 'string') throw new Error(`${at}.request.query must be a string`);
    if (req.origin !== undefined && !isOrigin(req.origin)) throw new Error(`${at}.request.origin must be an origin such as "https://api.example.com" (scheme, host and port only)`);
    if (!Number.isInteger(res.status) || res.status < 200 || res.status > 599) throw new Error(`${at}.response.status must be a final HTTP status (200-599)`);
    const headers: Record<string, string> = {};
    if (res.headers !== undefined) {
      if (!isObj(res.headers)) throw new Error(`${at}.response.headers must be an object of names and values`);
      for (const [name, value] of Object.entries(res.headers)) {
        if (!isHeaderName(name)) throw new Error(`${at}.response.headers has ${JSON.stringify(name)}, which is not a header name`);
        if (typeof value !== 'string' || !isHeaderValue(value)) throw new Error(`${at}.response.headers.${name} must be a string a header can carry (no CR, LF or other control character, nothing past U+00FF)`);
        // Framing (Content-Length, Transfer-Encoding, Content-Encoding) is the host's; the rest as recordings keep them.
        if (keepsHeader(name.toLowerCase())) headers[name.toLowerCase()] = value;
      }
    }
    let answer: ReplayEntry['answer'];
    if (res.file !== undefined) {
      if (typeof res.file !== 'string' || res.file === '' || /[/\\\0]/.test(res.file) || res.file === '.' || res.file === '..') throw new Error(`${at}.response.file must be a file name in the same folder`);
      if (res.body !== undefined || res.text !== undefined || res.base64 !== undefined) throw new Error(`${at}.response has a file and a body: give one`);
      answer = { file: res.file };
    } else answer = bodyBytes(res, `${at}.response`) ?? new Uint8Array(0);
    if (res.body !== undefined && !Object.keys(headers).includes('content-type')) headers['content-type'] = 'application/json';
    let body: string | undefined;
    try {
      body = recordedRequestKey(req);
    } catch (err) {
      throw new Error(`${at}.${(err as Error).message}`);
    }
    return {
      method: req.method.toUpperCase(),
      query: req.query ? canonicalQuery(req.query) : '',
      body,
      status: res.status,
      statusText: sendableStatusText(res.statusText),
      headers,
      answer,
      ...(req.origin !== undefined ? { origin: req.origin } : {}),
    };
  });
}

/** Whether two recorded exchanges answer the same request (method, query, body). */
function sameRequest(a: RecordedRequest, b: RecordedRequest): boolean {
  return a.method.toUpperCase() === b.method.toUpperCase() && canonicalQuery(a.query ?? '') === canonicalQuery(b.query ?? '') && recordedRequestKey(a) === recordedRequestKey(b);
}

/**
 * The recording with `exchange` added (`text`: the file as it is, or null when there is none):
 * an earlier answer to the same request is kept unless `overwrite`. `changed` false: nothing to write.
 */
export function addToRecording(text: string | null, exchange: RecordedExchange, overwrite: boolean): { text: string; changed: boolean } {
  let doc: RecordingDocument = { recorded: [] };
  if (text !== null) {
    const parsed = JSON.parse(text) as unknown;
    if (!isObj(parsed) || !Array.isArray(parsed.recorded)) throw new Error('is not a recording ({ "recorded": [ … ] })');
    doc = parsed as unknown as RecordingDocument;
  }
  const at = doc.recorded.findIndex((x) => isObj(x) && isObj(x.request) && sameRequest(x.request, exchange.request));
  if (at !== -1 && !overwrite) return { text: text!, changed: false };
  if (at !== -1) doc.recorded[at] = exchange;
  else doc.recorded.push(exchange);
  return { text: `${JSON.stringify(doc, null, 2)}\n`, changed: true };
}

/** A body as a recording holds it: JSON as a value, other text as text, anything else base64. */
export function recordedBody(bytes: Uint8Array, json: boolean, textual: boolean): RecordedBody {
  if (bytes.byteLength === 0) return {};
  let text: string | undefined;
  try {
    if (json || textual) text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    // not UTF-8: base64
  }
  if (text === undefined) return { base64: bytesToBase64(bytes) };
  if (json) {
    try {
      return { body: JSON.parse(text) };
    } catch {
      // invalid JSON: kept as text
    }
  }
  return { text };
}
