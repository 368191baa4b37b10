/**
 * The admin API's record route (admin.ts hands `/record` here): recording through the proxy,
 * started and stopped at run time (the mock API's `recording`: what `proxy.record` keeps — a 2xx
 * GET body as a mock file, every answer in `<name>@recorded.json` — written into the mocks folder
 * and replayed from there by plain serving), and what was recorded.
 *
 *   GET record   { target, recording, entries: [{ method, url, path, status, time, startedDateTime }] }
 *   PUT record   body { "recording": true | false } → the same (409 without mock.proxy)
 *   GET record/har  the recording as a HAR 1.2 file (the recorder's own log, `api.recording.har()`:
 *                   the one HAR writer `mockyard record --har` uses), for `mockyard --har FILE`
 */
import { readBody } from '../core/body.js';
import { HttpError } from '../core/errors.js';
import { FastResponse } from '../core/fast-response.js';
import { parseJsonBytes } from '../core/json-safety.js';
import type { MockApi } from '../engine/create-mock-api.js';

const json = (value: unknown, head = false) => FastResponse.json(JSON.stringify(value), 200, { 'Cache-Control': 'no-store' }, head);

function state(api: MockApi) {
  const har = api.recording.har();
  const entries = (har?.log.entries ?? []).map((e) => {
    let path = e.request.url;
    try {
      const u = new URL(e.request.url);
      path = u.pathname + u.search;
    } catch {
      // kept as recorded
    }
    return { method: e.request.method, url: e.request.url, path, status: e.response.status, time: e.time, startedDateTime: e.startedDateTime };
  });
  return { target: api.recording.target, recording: api.recording.active, entries };
}

export async function recordRoute(api: MockApi, request: Request, method: string, sub = '/record'): Promise<Response> {
  if (sub === '/record/har') {
    if (method !== 'GET' && method !== 'HEAD') throw new HttpError(405, `Method ${method} is not allowed here`, { headers: { Allow: 'GET, HEAD' } });
    const har = api.recording.har();
    if (!har) throw new HttpError(404, api.recording.target ? 'Nothing was recorded yet: start recording first' : 'No proxy target (mock.proxy): nothing is recorded');
    const name = `recording-${new Date().toISOString().replace(/[:.]/g, '-')}.har`;
    return FastResponse.json(JSON.stringify(har, null, 2), 200, { 'Cache-Control': 'no-store', 'Content-Disposition': `attachment; filename="${name}"` }, method === 'HEAD');
  }
  if (method === 'GET' || method === 'HEAD') return json(state(api), method === 'HEAD');
  if (method !== 'PUT') throw new HttpError(405, `Method ${method} is not allowed here`, { headers: { Allow: 'GET, HEAD, PUT' } });
  const body = parseJsonBytes(await readBody(request, 4096)) as { recording?: unknown } | null;
  if (body === null || typeof body !== 'object' || typeof body.recording !== 'boolean') throw new HttpError(400, 'The body must be {"recording": true} or {"recording": false}');
  if (body.recording) api.recording.start();
  else api.recording.stop();
  return json(state(api));
}
