/**
 * An answer against the document's response for its status and content type (the `openapi`
 * layer's `around`, with `validateResponses` or `strictResponses`):
 *
 *   status     a success or redirect (< 400) the document does not list (no exact code, `2XX`
 *              or `default`) → a violation. An error status is checked only against its exact
 *              code or range (`404`, `4XX`), never `default`: one the document does not list is
 *              the mock's own answer (a plain 404 of an unknown id, a 400 of a refused request);
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

function documentedCode(op: Operation, status: number, everyStatus: boolean): Operation['responses'][number] | undefined {
  const exact = String(status);
  const range = `${exact[0]}XX`;
  return (
    op.responses.find((r) => r.code === exact) ??
    op.responses.find((r) => r.code.toUpperCase() === range) ??
    (status < 400 || everyStatus ? op.responses.find((r) => r.code.toLowerCase() === 'default') : undefined)
  );
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
  /**
   * Hold error statuses to the document too (`default` included, an undocumented one is a
   * violation): answers of a real API (`mockyard check` on recorded traffic), not the mock's own.
   */
  everyStatus?: boolean;
  /** The largest native body read to check it (bytes; default 1 MiB). */
  readLimit?: number;
}

const DEFAULT_READ_LIMIT = 1024 * 1024;

export async function checkAnswer(op: Operation, compiled: CompiledOperation | undefined, method: string, response: Response, options: CheckOptions = {}): Promise<CheckedAnswer> {
  const status = response.status;
  const everyStatus = options.everyStatus === true;
  const documented = documentedCode(op, status, everyStatus);
  if (documented === undefined) {
    if ((status >= 400 && !everyStatus) || op.responses.length === 0) return { response, problems: [] };
    return { response, problems: [{ pointer: '', message: `status ${status} is not documented (${op.responses.map((r) => r.code).join(', ')})` }] };
  }
  const header = responseHeader(response, 'content-type');
  const type = parseMediaType(header).type;
  const types = documented.contents.map((c) => c.type);
  if (header !== null && types.length > 0 && !types.some((t) => typeMatches(t, type))) {
    return { response, problems: [{ pointer: '', message: `content type ${type} is not documented for ${documented.code} (${types.join(', ')})` }] };
  }
  if (method === 'HEAD' || !isJsonMediaType(type) || compiled === undefined || !compiled.hasResponseSchema(documented.code)) return { response, problems: [] };
  const coding = responseHeader(response, 'content-encoding');
  if (coding !== null && coding.trim().toLowerCase() !== 'identity') return { response, problems: [] };
  const read = await bodyOf(response, options.readLimit ?? DEFAULT_READ_LIMIT);
  if ('unchecked' in read) return { response, problems: [], unchecked: read.unchecked };
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
