/**
 * The admin API's session routes (admin.ts hands every `/sessions…` path here):
 *
 *   GET    sessions                     { sessions: [{ id, created, lastUsed, scenario, overrides, changes, files }] }
 *   POST   sessions                     body { id?, scenario?, overrides? } → 201 the session (a new id when none is given)
 *   GET    sessions/<id>                the session (404 when there is none)
 *   DELETE sessions/<id>                drops it (204; 404 when there is none)
 *   POST   sessions/<id>/reset          back to a fresh session: data, overrides and scenario dropped
 *   PUT    sessions/<id>/scenario       body { name: "<scenario>" | null }
 *   GET    sessions/<id>/overrides      { overrides }
 *   POST   sessions/<id>/overrides      body: one override or an array (src/engine/sessions/overrides.ts)
 *   DELETE sessions/<id>/overrides      removes them all
 *   DELETE sessions/<id>/overrides/<n>  removes the n-th (0: the newest, as GET lists them): undo one
 *   GET    sessions/<id>/requests       the journal entries of that session (as GET requests?session=<id>)
 *
 * PUT scenario and POST overrides create the session when it does not exist yet, so a test can
 * prepare it before its first request.
 */
import { readBody } from '../core/body.js';
import { HttpError } from '../core/errors.js';
import { FastResponse } from '../core/fast-response.js';
import { assertNoForbiddenKeys, parseJsonBytes } from '../core/json-safety.js';
import type { MockApi } from '../engine/create-mock-api.js';
import type { SessionInfo } from '../engine/session-set.js';
import type { Journal, JournalFilter } from './journal.js';
import { isObj } from '../core/json-object.js';

const BODY_LIMIT = 1024 * 1024;

const json = (value: unknown, status = 200, head = false) => FastResponse.json(JSON.stringify(value), status, { 'Cache-Control': 'no-store' }, head);

async function jsonBodyOf(request: Request, empty: unknown): Promise<unknown> {
  const bytes = await readBody(request, BODY_LIMIT);
  if (bytes.byteLength === 0) return empty;
  const value = parseJsonBytes(bytes);
  assertNoForbiddenKeys(value);
  return value;
}

function decode(seg: string): string {
  try {
    return decodeURIComponent(seg);
  } catch {
    throw new HttpError(400, 'Malformed session id in the URL');
  }
}

/**
 * Answers `sub` (the path below the admin base, starting `/sessions`). `filterFrom` reads a
 * journal filter from query parameters (admin.ts's).
 */
export async function sessionRoute(api: MockApi, journal: Journal | null | undefined, request: Request, method: string, sub: string, params: URLSearchParams, filterFrom: (p: URLSearchParams) => JournalFilter): Promise<Response> {
  const head = method === 'HEAD';
  const sessions = api.sessions;
  const allow = (methods: string): never => {
    throw new HttpError(405, `Method ${method} is not allowed here`, { headers: { Allow: methods } });
  };
  const parts = sub.split('/').slice(2); // ['', 'sessions', id, action]
  if (parts.length === 0) {
    if (method === 'GET' || head) return json({ sessions: sessions.list() }, 200, head);
    if (method === 'POST') {
      const body = await jsonBodyOf(request, {});
      if (!isObj(body)) throw new HttpError(400, 'The body must be an object { id?, scenario?, overrides? }');
      const { id, scenario, overrides } = body;
      if (id !== undefined && typeof id !== 'string') throw new HttpError(400, 'id must be a string');
      if (scenario !== undefined && scenario !== null && typeof scenario !== 'string') throw new HttpError(400, 'scenario must be a string or null');
      if (overrides !== undefined && !Array.isArray(overrides)) throw new HttpError(400, 'overrides must be an array');
      const existed = typeof id === 'string' && sessions.get(id) !== undefined;
      const created = sessions.create(id, { scenario: scenario as string | null | undefined, overrides: overrides as unknown[] | undefined });
      return json(created, existed ? 200 : 201);
    }
    return allow('GET, HEAD, POST');
  }
  const id = decode(parts[0]!);
  const action = parts.slice(1).join('/');
  const found = (s: SessionInfo | undefined): SessionInfo => {
    if (s === undefined) throw new HttpError(404, `No session ${JSON.stringify(id.slice(0, 140))}`);
    return s;
  };
  switch (action) {
    case '':
      if (method === 'GET' || head) return json(found(sessions.get(id)), 200, head);
      if (method === 'DELETE') {
        if (!sessions.remove(id)) found(undefined);
        return FastResponse.empty(204);
      }
      return allow('GET, HEAD, DELETE');
    case 'reset':
      if (method === 'POST') return json(found(sessions.reset(id)));
      return allow('POST');
    case 'scenario': {
      if (method === 'GET' || head) return json({ scenario: found(sessions.get(id)).scenario, scenarios: api.scenarios }, 200, head);
      if (method !== 'PUT') return allow('GET, HEAD, PUT');
      const body = await jsonBodyOf(request, undefined);
      const name = isObj(body) ? body.name : undefined;
      if (!isObj(body) || (name !== null && typeof name !== 'string')) throw new HttpError(400, 'The body must be {"name": "<scenario>"} or {"name": null}');
      return json(sessions.useScenario(id, name as string | null));
    }
    case 'overrides': {
      if (method === 'GET' || head) return json({ overrides: found(sessions.get(id)).overrides }, 200, head);
      if (method === 'POST') {
        const body = await jsonBodyOf(request, undefined);
        if (body === undefined) throw new HttpError(400, 'The body must be an override { method, path, status, … } or an array of them');
        return json(sessions.addOverrides(id, Array.isArray(body) ? body : [body]));
      }
      if (method === 'DELETE') return json(found(sessions.clearOverrides(id)));
      return allow('GET, HEAD, POST, DELETE');
    }
    case 'requests': {
      if (method !== 'GET' && !head) return allow('GET, HEAD');
      if (!journal) throw new HttpError(404, 'The request journal is off (mock.journal: false)');
      return json({ entries: journal.list({ ...filterFrom(params), session: id }) }, 200, head);
    }
    default: {
      const m = /^overrides\/(\d{1,6})$/.exec(action);
      if (m === null) throw new HttpError(404, 'Not Found');
      if (method !== 'DELETE') return allow('DELETE');
      found(sessions.get(id));
      const after = sessions.removeOverride(id, Number(m[1]));
      if (after === undefined) throw new HttpError(404, `The session has no override ${m[1]}`);
      return json(after);
    }
  }
}
