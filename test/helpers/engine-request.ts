/** Small builders for engine requests and response inspection. */
const BASE = 'http://mock.test';

export function req(method: string, path: string, init: { json?: unknown; body?: BodyInit; headers?: Record<string, string> } = {}): Request {
  const headers: Record<string, string> = { ...init.headers };
  let body = init.body;
  if (init.json !== undefined) {
    body = new TextEncoder().encode(JSON.stringify(init.json));
    headers['content-type'] ??= 'application/json';
  }
  return new Request(BASE + path, { method, body, headers });
}

export interface Seen {
  status: number;
  headers: Record<string, string>;
  text: string;
  json: any;
}

export async function see(response: Response | undefined): Promise<Seen> {
  if (!response) throw new Error('engine answered undefined');
  const text = await response.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: Object.fromEntries(response.headers), text, json };
}
