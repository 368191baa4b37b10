/**
 * The admin API's route overrides outside sessions (admin.ts hands `/overrides…` and
 * `/scenarios/…` here); the overrides are the sessions' shape (src/engine/sessions/overrides.ts):
 *
 *   GET    overrides                          { overrides }: the shared ones, newest first (every request without a session)
 *   POST   overrides                          body: one override or an array → { overrides }
 *   DELETE overrides                          removes them all → { overrides: [] }
 *   DELETE overrides/<n>                      removes the n-th (0: the newest): undo one → { overrides }
 *   GET    scenarios/<name>                   a saved scenario: { name, overrides, current }
 *   POST   scenarios/<name>/overrides         adds to saved scenario <name>, creating it → 201 / 200 { name, overrides, current }
 *   DELETE scenarios/<name>/overrides/<n>     undo one of its overrides → { name, overrides, current }
 *   DELETE scenarios/<name>                   drops it (204; the current scenario goes back to the base when it was this one)
 *
 * A saved scenario is selected as a configured one: PUT scenario { name }, the X-Mockyard-Scenario
 * header, `?scenario=`, a session's scenario.
 */
import { readBody } from '../core/body.js';
import { HttpError } from '../core/errors.js';
import { FastResponse } from '../core/fast-response.js';
import { assertNoForbiddenKeys, parseJsonBytes } from '../core/json-safety.js';
import type { MockApi } from '../engine/create-mock-api.js';

const BODY_LIMIT = 1024 * 1024;

const json = (value: unknown, status = 200, head = false) => FastResponse.json(JSON.stringify(value), status, { 'Cache-Control': 'no-store' }, head);

async function overridesIn(request: Request): Promise<unknown[]> {
  const bytes = await readBody(request, BODY_LIMIT);
  if (bytes.byteLength === 0) throw new HttpError(400, 'The body must be an override { method, path, status, … } or an array of them');
  const value = parseJsonBytes(bytes);
  assertNoForbiddenKeys(value);
  return Array.isArray(value) ? value : [value];
}

function decode(seg: string): string {
  try {
    return decodeURIComponent(seg);
  } catch {
    throw new HttpError(400, 'Malformed scenario name in the URL');
  }
}

export async function overridesRoute(api: MockApi, request: Request, method: string, sub: string): Promise<Response> {
  const head = method === 'HEAD';
  const control = api.routeOverrides;
  const allow = (methods: string): never => {
    throw new HttpError(405, `Method ${method} is not allowed here`, { headers: { Allow: methods } });
  };
  const parts = sub.split('/').slice(1); // ['overrides', …] or ['scenarios', name, …]
  if (parts[0] === 'overrides') {
    if (parts.length === 1) {
      if (method === 'GET' || head) return json({ overrides: control.shared }, 200, head);
      if (method === 'POST') return json({ overrides: control.add(await overridesIn(request)) });
      if (method === 'DELETE') {
        control.clear();
        return json({ overrides: control.shared });
      }
      return allow('GET, HEAD, POST, DELETE');
    }
    if (parts.length === 2 && /^\d{1,6}$/.test(parts[1]!)) {
      if (method !== 'DELETE') return allow('DELETE');
      if (!control.remove(Number(parts[1]))) throw new HttpError(404, `There is no shared override ${parts[1]}`);
      return json({ overrides: control.shared });
    }
    throw new HttpError(404, 'Not Found');
  }
  const name = decode(parts[1] ?? '');
  const scenario = (status = 200) => {
    const overrides = control.saved.get(name);
    if (overrides === undefined) throw new HttpError(404, `No saved scenario ${JSON.stringify(name.slice(0, 64))}${api.scenarios.includes(name) ? ' (it is a configured one: its overrides are in the config)' : ''}`);
    return json({ name, overrides, current: api.scenario === name }, status, head);
  };
  const action = parts.slice(2);
  if (action.length === 0) {
    if (method === 'GET' || head) return scenario();
    if (method === 'DELETE') {
      if (!control.drop(name)) scenario();
      return FastResponse.empty(204);
    }
    return allow('GET, HEAD, DELETE');
  }
  if (action[0] === 'overrides' && action.length === 1) {
    if (method !== 'POST') return allow('POST');
    const existed = control.saved.has(name);
    control.addTo(name, await overridesIn(request));
    return scenario(existed ? 200 : 201);
  }
  if (action[0] === 'overrides' && action.length === 2 && /^\d{1,6}$/.test(action[1]!)) {
    if (method !== 'DELETE') return allow('DELETE');
    scenario();
    if (!control.removeFrom(name, Number(action[1]))) throw new HttpError(404, `The saved scenario has no override ${action[1]}`);
    return scenario();
  }
  throw new HttpError(404, 'Not Found');
}
