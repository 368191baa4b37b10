/**
 * An answer against the document's response for its status and content type (the `openapi`
 * layer's `around`, with `validateResponses` or `strictResponses`):
 *
 *   status     THE rule, for the layer (`validateResponses`, `strictResponses`) and `mockyard
 *              check` alike: an answer is held to its exact code, else its range (`4XX`), else
 *              `default`; a status none of them covers → a violation. mockyard's own error
 *              answers (its JSON error body, core/errors.ts: a 400 of a refused request, the 404
 *              of an unknown id) are the mock speaking, not the API: never held to the document
 *              (where the document gives an example for such an error, mockyard answers with it,
 *              documented-error.ts);
 *   type       a body whose Content-Type is none of the documented ones (JSON types count as
 *              one family: `application/json` answers `application/vnd.github+json`; `*∕*` and
 *              `type/*` match their kind) → a violation, found from the header alone;
 *   body       a JSON body (not HEAD, not encoded) is read and checked against the schema (Ajv,
 *              request-validator.ts); each problem as a JSON pointer into the body. A native
 *              body is read only with a Content-Length up to `readLimit`: one without is a
 *              stream and goes out as it comes (`unchecked` says why).
 *
 * Anything else is passed through untouched and unread: a stream (`text/event-stream`), a file
 * download, a proxied non-JSON body.
 */
import { fastBodyBytes, fastState, responseHeader } from '../../core/fast-response.js';
import { isJsonMediaType, parseMediaType } from '../../core/media-type.js';
import type { Operation } from '../openapi-document/operations.js';
import type { CompiledOperation, Problem } from './request-validator.js';

/** One problem of an answer: a JSON pointer into its body (`''` = the whole answer) and what is wrong. */
export interface AnswerProblem {
  readonly pointer: string;
  readonly message: string;
}

export interface CheckedAnswer {
  /** The answer to send (the same one, or a copy when its body had to be read). */
  response: Response;
  /** Empty when the answer matches. */
  problems: AnswerProblem[];
  /** Why the body was not checked although its schema is documented (a stream, too large). */
  unchecked?: string;
}

const decoder = new TextDecoder();

/** A validator problem as the JSON pointer into the answer's body (`/owner/name`). */
export function answerPointer(p: Problem): string {
  if (!p.at) return '';
  return `/${p.at.split('.').filter(Boolean).map((s) => s.replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`;
}

function documentedCode(op: Operation, status: number): Operation['responses'][number] | undefined {
  const exact = String(status);
  const range = `${exact[0]}XX`;
  return op.responses.find((r) => r.code === exact) ?? op.responses.find((r) => r.code.toUpperCase() === range) ?? op.responses.find((r) => r.code.toLowerCase() === 'default');
}

/** mockyard's own error body (core/errors.ts `errorBody`): `{ status, error, message, path, … }` with the answer's status. */
function isOwnError(status: number, bytes: Uint8Array | null): boolean {
  if (bytes === null || bytes.byteLength === 0 || bytes[0] !== 0x7b) return false;
  try {
    const body = JSON.parse(decoder.decode(bytes)) as Record<string, unknown>;
    return body.status === status && typeof body.error === 'string' && typeof body.message === 'string' && typeof body.path === 'string';
  } catch {
    return false;
  }
}

function typeMatches(documented: string, actual: string): boolean {
  const d = parseMediaType(documented).type;
  if (d === actual || d === '*/*' || d === '') return true;
  if (d.endsWith('/*') && actual.startsWith(d.slice(0, -1))) return true;
  return isJsonMediaType(d) && isJsonMediaType(actual);
}

/**
 * The bytes of an answer's body and the answer to send in its place (a native body can be read
 * once), or why it is not read: a native body without a Content-Length is a stream (a handler
 * writing JSON as it goes, a chunked proxied answer) and goes out as it comes; one longer than
 * `limit` is not held in memory.
 */
async function bodyOf(response: Response, limit: number): Promise<{ bytes: Uint8Array | null; response: Response } | { unchecked: string }> {
  const state = fastState(response);
  if (state !== undefined) return { bytes: fastBodyBytes(state), response };
  if (response.body === null) return { bytes: null, response };
  const declared = responseHeader(response, 'content-length');
  if (declared === null) return { unchecked: 'a streamed body (no Content-Length)' };
  if (Number(declared) > limit) return { unchecked: `a body of ${declared} bytes (over ${limit})` };
  const bytes = new Uint8Array(await response.arrayBuffer());
  return { bytes, response: new Response(bytes, { status: response.status, statusText: response.statusText, headers: response.headers }) };
}

export interface CheckOptions {
  /** The largest native body read to check it (bytes; default 1 MiB). */
  readLimit?: number;
}

const DEFAULT_READ_LIMIT = 1024 * 1024;

export async function checkAnswer(op: Operation, compiled: CompiledOperation | undefined, method: string, response: Response, options: CheckOptions = {}): Promise<CheckedAnswer> {
  const status = response.status;
  const header = responseHeader(response, 'content-type');
  const type = parseMediaType(header).type;
  const limit = options.readLimit ?? DEFAULT_READ_LIMIT;
  let read: { bytes: Uint8Array | null; response: Response } | undefined;
  if (status >= 400 && isJsonMediaType(type) && method !== 'HEAD') {
    const got = await bodyOf(response, limit);
    if (!('unchecked' in got)) {
      read = got;
      response = got.response;
      if (isOwnError(status, got.bytes)) return { response, problems: [] };
    }
  }
  const documented = documentedCode(op, status);
  if (documented === undefined) {
    if (op.responses.length === 0) return { response, problems: [] };
    return { response, problems: [{ pointer: '', message: `status ${status} is not documented (${op.responses.map((r) => r.code).join(', ')})` }] };
  }
  const types = documented.contents.map((c) => c.type);
  if (header !== null && types.length > 0 && !types.some((t) => typeMatches(t, type))) {
    return { response, problems: [{ pointer: '', message: `content type ${type} is not documented for ${documented.code} (${types.join(', ')})` }] };
  }
  if (method === 'HEAD' || !isJsonMediaType(type) || compiled === undefined || !compiled.hasResponseSchema(documented.code)) return { response, problems: [] };
  const coding = responseHeader(response, 'content-encoding');
  if (coding !== null && coding.trim().toLowerCase() !== 'identity') return { response, problems: [] };
  if (read === undefined) {
    const got = await bodyOf(response, limit);
    if ('unchecked' in got) return { response, problems: [], unchecked: got.unchecked };
    read = got;
  }
  if (read.bytes === null || read.bytes.byteLength === 0) return { response: read.response, problems: [{ pointer: '', message: 'the body is empty (a JSON body is documented)' }] };
  let body: unknown;
  try {
    body = JSON.parse(decoder.decode(read.bytes));
  } catch {
    return { response: read.response, problems: [{ pointer: '', message: 'the body is not valid JSON' }] };
  }
  const problems = compiled.checkResponse(documented.code, body) ?? [];
  return { response: read.response, problems: problems.map((p) => ({ pointer: answerPointer(p), message: p.message })) };
}
