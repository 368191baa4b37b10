/**
 * Beside Prism: the answers Prism 5.14.2 gave to the same requests on the same documents
 * (test/fixtures/prism/*.json, recorded by test/fixtures/prism/record.mjs), sent to mockyard
 * through the CLI's real server. Each probe must match Prism's status, media type and body (its
 * own problem bodies: their error code); the differences kept on purpose are listed in
 * `DIFFERENCES`, each with its reason (docs/openapi.md, "Beside Prism").
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, stopClis } from '../../helpers/cli-run.js';
import { makeTempDir, removeTempDirs } from '../../helpers/temp-dir.js';

const ROOT = fileURLToPath(new URL('../../fixtures/', import.meta.url));

interface Probe {
  request: { method: string; path: string; headers: Record<string, string>; body?: string };
  answer: { status: number; headers: Record<string, string>; body: unknown };
}
interface Recording {
  peer: string;
  probes: Record<string, Probe>;
}

async function serve(args: string[]) {
  const r = await runCli([...args, '--port', '0', '--log-level', 'silent'], await makeTempDir());
  expect(r.err).toBe('');
  return r.server!.url;
}

/** Prism's problem types → mockyard's error codes. */
const CODES: Record<string, string> = {
  NOT_FOUND: 'NOT_FOUND',
  NOT_ACCEPTABLE: 'NOT_ACCEPTABLE',
  UNAUTHORIZED: 'UNAUTHORIZED',
  INVALID_CONTENT_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  UNPROCESSABLE_ENTITY: 'UNPROCESSABLE_ENTITY',
};

const mediaType = (v: string | null | undefined) => (v ?? '').split(';')[0]!.trim().toLowerCase();

/**
 * Where mockyard answers differently on purpose: the probe, what mockyard answers, and why
 * (docs/openapi.md says the same).
 */
const DIFFERENCES: Record<string, { status?: number; why: string }> = {
  'form body missing name': { status: 400, why: 'the operation documents no 4xx: the HTTP status of a bad request (Prism makes up 422)' },
  'form body age not an integer': { status: 400, why: 'as above' },
  'multipart body missing name': { status: 400, why: 'as above' },
  'deepObject invalid enum': { status: 400, why: 'as above' },
  'form exploded object over maximum': { status: 400, why: 'as above' },
  'form object not exploded over maximum': { status: 400, why: 'documents 4XX only: 400 with its example (Prism: 422 with it)' },
  'any id answers': { status: 404, why: 'stateful: an id never created is not found (the `ids: any` option answers it)' },
  'Prefer code=201 on POST': { why: 'stateful: the created item, not the example (same status)' },
  'Swagger 2.0 XML example': { why: 'stateful: the kept item serialised as XML, not the XML example (same status and type)' },
  'POST /bookings XML body': { status: 201, why: 'XML request bodies are taken unvalidated' },
};

/** Bodies Prism draws at random or from placeholders: only their media type is compared. */
const DRAWN = new Set(['XML from a schema']);

/** What mockyard answers to a probe, beside what Prism answered (as compared). */
async function compare(url: string, name: string, { request, answer }: Probe): Promise<{ seen: unknown; wanted: unknown }> {
  const res = await fetch(`${url}${request.path}`, { method: request.method, headers: request.headers, body: request.body });
  const type = mediaType(res.headers.get('content-type'));
  const text = await res.text();
  const prismType = mediaType(answer.headers['content-type']);
  const difference = DIFFERENCES[name];
  if (difference) {
    const typed = difference.status === undefined;
    return { seen: { status: res.status, ...(typed ? { type } : {}) }, wanted: { status: difference.status ?? answer.status, ...(typed ? { type: prismType } : {}) } };
  }
  const prismOwn = prismType === 'application/problem+json' && String((answer.body as { type?: string }).type).startsWith('https://stoplight.io/prism/errors#');
  if (prismOwn) {
    const prismCode = String((answer.body as { type: string }).type).split('#')[1]!;
    const code = type === 'application/json' ? (JSON.parse(text) as { error?: string }).error : undefined;
    return { seen: { status: res.status, code }, wanted: { status: answer.status, code: CODES[prismCode] ?? prismCode } };
  }
  const body = text === '' ? '' : /json/.test(type) ? JSON.parse(text) : text;
  return {
    seen: { status: res.status, type, body: DRAWN.has(name) ? typeof body : body },
    wanted: { status: answer.status, type: prismType, body: DRAWN.has(name) ? typeof answer.body : answer.status === 204 ? '' : answer.body },
  };
}

const SETS: [string, string, string][] = [
  ['prism-rules', 'prism-rules.yaml', ''],
  ['prism-rules-swagger', 'prism-rules-swagger.json', '/v1'], // Prism serves a Swagger 2.0 document at / (it ignores basePath)
  ['train-travel', 'train-travel-3.1.json', ''],
];

for (const [recordingName, document, prefix] of SETS) {
  const rec = JSON.parse(readFileSync(join(ROOT, 'prism', `${recordingName}.json`), 'utf8')) as Recording;
  describe(`beside ${rec.peer}`, () => {
    let url = '';
    beforeAll(async () => {
      url = (await serve([join(ROOT, 'openapi', document)])) + prefix;
    });
    afterAll(async () => {
      await stopClis();
      await removeTempDirs();
    });
    // In order: the probes run one after the other on one server, as they ran on Prism.
    for (const [name, probe] of Object.entries(rec.probes)) {
      it(name, async () => {
        const { seen, wanted } = await compare(url, name, probe);
        expect(seen).toEqual(wanted);
      });
    }
  });
}

describe('ids', () => {
  const PETSTORE = join(ROOT, 'openapi', 'swagger-petstore-3.0.yaml');
  const AUTH = { authorization: 'Bearer token', api_key: 'key' };
  afterAll(async () => {
    await stopClis();
    await removeTempDirs();
  });

  it('population (default): an id never created is 404; --ids any: any id answers an item drawn for it, as Prism answers (its fixture), and a DELETE of it succeeds', async () => {
    const prism = JSON.parse(readFileSync(join(ROOT, 'prism', 'swagger-petstore-3.0.json'), 'utf8')) as { answers: Record<string, { status: number }> };
    expect(prism.answers['GET /v2/pet/123456 (any id)']!.status).toBe(200);
    const stateful = await serve([PETSTORE]);
    expect((await fetch(`${stateful}/v2/pet/123456`, { headers: AUTH })).status).toBe(404);

    const any = await serve([PETSTORE, '--ids', 'any']);
    const first = await fetch(`${any}/v2/pet/123456`, { headers: AUTH });
    expect(first.status).toBe(200);
    const item = (await first.json()) as { id: number; name: string };
    expect(item).toMatchObject({ id: 123456, name: expect.any(String) });
    expect(await (await fetch(`${any}/v2/pet/123456`, { headers: AUTH })).json()).toEqual(item);
    expect((await fetch(`${any}/v2/pet/1`, { headers: AUTH })).status).toBe(200); // the population still answers
    expect((await fetch(`${any}/v2/pet/777`, { method: 'DELETE', headers: AUTH })).status).toBeLessThan(300);
    expect((await runCli(['--ids', 'any', '--port', '0'], await makeTempDir())).code).toBe(2); // a document flag without a document
  });
});

describe('a body to an operation that documents none', () => {
  it('is a 415 when it holds bytes; an empty stream (a page\'s DELETE, msw) is no body', async () => {
    const { createNodeMockApi } = await import('../../../src/node/engines.js');
    const api = createNodeMockApi({ endpointPrefix: '/', fsDir: null, logLevel: 'silent', openapi: join(ROOT, 'openapi', 'prism-rules.yaml') });
    await api.ready();
    const stream = (text: string) => new ReadableStream<Uint8Array>({ start(c) { if (text) c.enqueue(new TextEncoder().encode(text)); c.close(); } });
    const send = (text: string) => api.handle(new Request('http://x/ping', { method: 'POST', body: stream(text), duplex: 'half' } as RequestInit));
    expect((await send(''))!.status).toBe(200);
    const refused = (await send('{"a":1}'))!;
    expect(refused.status).toBe(415);
    expect(((await refused.json()) as { error: string }).error).toBe('UNSUPPORTED_MEDIA_TYPE');
    await api.close();
  });
});

describe("the document's example for an invalid request", () => {
  afterAll(async () => {
    await stopClis();
    await removeTempDirs();
  });

  it("is the body; mockyard's own message goes in the Mockyard-Error header", async () => {
    const url = await serve([join(ROOT, 'openapi', 'train-travel-3.1.json')]);
    const res = await fetch(`${url}/bookings`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer x' }, body: '{"trip_id":7}' });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(((await res.json()) as { type: string }).type).toBe('https://example.com/errors/bad-request');
    expect(res.headers.get('mockyard-error')).toMatch(/^Request does not match the OpenAPI document: body\.trip_id must be string/);
  });
});
