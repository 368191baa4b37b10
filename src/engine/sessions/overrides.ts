/**
 * Declarative handler overrides: what a test (in any language, over HTTP) or `api.sessions`
 * adds to one session, as plain JSON:
 *
 *   { "method": "GET", "path": "/users/:id", "status": 500, "headers": {…},
 *     "body": {…} | "text", "file": "fixtures/big.json", "delay": 200 | [100, 300] }
 *
 *   method  an HTTP method or "*" (default "*": every method)
 *   path    a handler pattern below the prefix (`/users/:id`, `/files/*`)
 *   status  the answer's status (default 200)
 *   headers extra answer headers
 *   body    a JSON value (sent as JSON) or a string (sent as text, unless headers say otherwise)
 *   file    a file of the mocks folder, as the session sees it, sent with its content type
 *   delay   ms, [min, max] or { p50, p99 } before the answer
 *   errorRate, fault, seed   faults (src/engine/faults/options.ts)
 *   prefer  "code=404" | "example=cat" | "dynamic=true" (or several, comma-separated): the
 *           request is answered as if it had sent that `Prefer` header, by the OpenAPI
 *           backend's own Prefer rule (openapi-backend/prefer.ts); not with body, file or status
 *
 * An override with `body` or `file`, or a `status` without `errorRate`, answers the request (it
 * becomes a REST handler placed before every other handler; its fault fields become the handler's
 * `fault`). Any other override only adds faults (delay, errorRate + status, fault) to what
 * answers normally (a fault rule placed before every other rule). Validation errors are
 * OptionsErrors naming the field (`overrides[0].status`).
 */
import { FastResponse } from '../../core/fast-response.js';
import { HttpError } from '../../core/errors.js';
import { contentTypeFor } from '../../core/media-type.js';
import { isHeaderName, isHeaderValue } from '../../core/header-name.js';
import { check, describe, isPlainObject, OptionsError } from '../../core/options.js';
import { joinVfsPath, normalizeVfsPath } from '../../vfs/path.js';
import { isVfsError } from '../../vfs/types.js';
import { compilePattern } from '../handler-api/pattern.js';
import { resolveDelay, type DelayOption } from '../delay.js';
import { checkFaultOptions, type FaultOptions, type FaultRule } from '../faults/options.js';
import { parsePrefer } from '../openapi-backend/prefer.js';
import type { RestHandler } from '../types.js';

export interface SessionOverride {
  method?: string;
  path: string;
  status?: number;
  headers?: Record<string, string>;
  body?: unknown;
  file?: string;
  delay?: DelayOption;
  errorRate?: number;
  fault?: FaultOptions['fault'];
  seed?: number | string;
  prefer?: string;
}

const KEYS = ['method', 'path', 'status', 'headers', 'body', 'file', 'delay', 'errorRate', 'fault', 'seed', 'prefer'] as const;

/** Whether the override answers the request itself (else it only adds faults). */
function answers(o: SessionOverride): boolean {
  return o.body !== undefined || o.file !== undefined || (o.status !== undefined && o.errorRate === undefined);
}

/** Validates one override (throws OptionsError naming the field); returns a clean copy. */
export function checkOverride(value: unknown, at: string): SessionOverride {
  if (!isPlainObject(value)) throw new OptionsError(at, `must be an object { method, path, status, headers, body, file, delay } (got ${describe(value)})`);
  check.knownKeys(value, at, KEYS);
  const path = check.string(value.path, `${at}.path`, undefined, { nonEmpty: true });
  if (path === undefined) throw new OptionsError(`${at}.path`, 'is required (a handler pattern such as "/users/:id")');
  compilePattern(path, `${at}.path`);
  const method = check.string(value.method, `${at}.method`, '*', { nonEmpty: true })!.toUpperCase();
  if (method !== '*' && !/^[A-Z][A-Z0-9_-]*$/.test(method)) throw new OptionsError(`${at}.method`, `must be an HTTP method or "*" (got ${describe(value.method)})`);
  const out: SessionOverride = { method, path };
  if (value.status !== undefined) out.status = check.number(value.status, `${at}.status`, 200, { min: value.errorRate === undefined ? 200 : 400, max: 599, integer: true });
  if (value.headers !== undefined) {
    if (!isPlainObject(value.headers)) throw new OptionsError(`${at}.headers`, `must be an object of header names to strings (got ${describe(value.headers)})`);
    for (const [k, v] of Object.entries(value.headers)) {
      if (!isHeaderName(k) || typeof v !== 'string' || !isHeaderValue(v)) throw new OptionsError(`${at}.headers`, `has an invalid header ${describe(k)}: ${describe(v)}`);
    }
    out.headers = { ...(value.headers as Record<string, string>) };
  }
  if (value.body !== undefined && value.file !== undefined) throw new OptionsError(`${at}.file`, 'cannot be combined with body');
  if (value.body !== undefined) out.body = value.body;
  if (value.file !== undefined) {
    const file = check.string(value.file, `${at}.file`, undefined, { nonEmpty: true })!;
    try {
      out.file = normalizeVfsPath(file);
    } catch {
      throw new OptionsError(`${at}.file`, `must be a path inside the mocks folder without "..", "\\" or NUL (got ${describe(file)})`);
    }
  }
  if (value.delay !== undefined) {
    resolveDelay(value.delay, `${at}.delay`);
    out.delay = value.delay as DelayOption;
  }
  const { errorRate, fault, seed } = checkFaultOptions({ errorRate: value.errorRate, fault: value.fault, seed: value.seed }, at);
  if (errorRate !== undefined) out.errorRate = errorRate;
  if (fault !== undefined) out.fault = fault;
  if (seed !== undefined) out.seed = seed;
  if (value.prefer !== undefined) {
    const prefer = check.string(value.prefer, `${at}.prefer`, undefined, { nonEmpty: true })!;
    const asked = parsePrefer(prefer);
    if (asked.code === undefined && asked.example === undefined && asked.dynamic === undefined) throw new OptionsError(`${at}.prefer`, `must be a Prefer value such as "code=404", "example=cat" or "dynamic=true" (got ${describe(value.prefer)})`);
    for (const k of ['body', 'file', 'status'] as const) if (value[k] !== undefined) throw new OptionsError(`${at}.prefer`, `cannot be combined with ${k}: the document's answer is chosen by the Prefer`);
    out.prefer = prefer;
  }
  return out;
}

/** A `prefer` override compiled: the requests it sets the Prefer of. */
export interface PreferRule {
  readonly method: string;
  readonly path: string;
  readonly prefer: string;
}

/** What an override becomes: a handler that answers, or a fault rule over the normal answer. */
export function compileOverride(o: SessionOverride, fsDir: string | null): { handler?: RestHandler; rule?: FaultRule; prefer?: PreferRule } {
  if (answers(o)) return { handler: overrideHandler(o, fsDir) };
  const prefer = o.prefer === undefined ? undefined : { method: o.method ?? '*', path: o.path, prefer: o.prefer };
  if (prefer && o.delay === undefined && o.errorRate === undefined && o.fault === undefined) return { prefer };
  const rule: FaultRule = { method: o.method ?? '*', path: o.path };
  if (o.delay !== undefined) rule.delay = o.delay;
  if (o.errorRate !== undefined) rule.errorRate = o.errorRate;
  if (o.status !== undefined) rule.status = o.status;
  if (o.fault !== undefined) rule.fault = o.fault;
  if (o.seed !== undefined) rule.seed = o.seed;
  return prefer ? { rule, prefer } : { rule };
}

/** The REST handler an answering override becomes; `fsDir`: the mocks folder in the session's filesystem (`req.app.fs`). */
export function overrideHandler(o: SessionOverride, fsDir: string | null): RestHandler {
  const status = o.status ?? 200;
  const extra = o.headers ?? {};
  const hasType = Object.keys(extra).some((k) => k.toLowerCase() === 'content-type');
  let handle: RestHandler['handle'];
  if (o.file !== undefined) {
    const file = o.file;
    handle = async (req) => {
      if (fsDir === null) throw new HttpError(404, `No mocks folder to read ${file} from`);
      let bytes: Uint8Array;
      try {
        bytes = await req.app.fs.read(joinVfsPath(fsDir, file));
      } catch (err) {
        if (isVfsError(err, 'ENOENT') || isVfsError(err, 'EISDIR') || isVfsError(err, 'ENOTDIR')) throw new HttpError(404, `The override's file ${file} does not exist`);
        throw err;
      }
      return FastResponse.bytes(bytes, status, hasType ? extra : { 'Content-Type': contentTypeFor(file), ...extra });
    };
  } else if (typeof o.body === 'string') {
    const text = o.body;
    handle = () => FastResponse.bytes(new TextEncoder().encode(text), status, hasType ? extra : { 'Content-Type': 'text/plain; charset=utf-8', ...extra });
  } else if (o.body !== undefined) {
    const text = JSON.stringify(o.body);
    handle = () => FastResponse.json(text, status, extra);
  } else {
    const headers = status === 204 || status === 304 ? extra : { ...extra, 'Content-Length': '0' };
    handle = () => FastResponse.empty(status, headers);
  }
  const fault: FaultOptions | undefined = o.fault !== undefined || o.errorRate !== undefined ? { ...(o.fault !== undefined ? { fault: o.fault } : {}), ...(o.errorRate !== undefined ? { errorRate: o.errorRate } : {}), ...(o.seed !== undefined ? { seed: o.seed } : {}) } : undefined;
  return { method: o.method ?? '*', pattern: o.path, handle, ...(o.delay !== undefined ? { delay: o.delay } : {}), ...(fault ? { fault } : {}) };
}
