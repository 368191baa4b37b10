/**
 * THE `Prefer` rule (Prism 5's, measured: test/fixtures/prism/prism-rules.json): which documented
 * response answers a request, and when the request asks for one the document does not have.
 *
 *   Prefer: code=N       N's response, else its range (`5XX`), else `default`; answered with N
 *   no code              the success answer (the first 2xx, then `2XX`, then `default`: 200);
 *                        an operation documenting no success answers its first documented
 *                        response (`405` only → 405, `4XX` + `5XX` → 400)
 *   Prefer: example=x    that named example of the chosen content
 *   Prefer: dynamic=true a fresh draw from the schema instead of the seeded one or the example
 *
 * A `code` or `example` the document does not have is unsatisfiable: 404 naming what was asked
 * and what exists (as Prism answers).
 */
import type { MediaContent, Operation, ResponseSpec } from '../openapi-document/operations.js';

export interface Prefer {
  code?: string;
  example?: string;
  dynamic?: boolean;
}

/** `Prefer: code=404, example=cat, dynamic=true` (as Prism reads it: `,` or `;` between). */
export function parsePrefer(header: string | null): Prefer {
  const out: Prefer = {};
  if (!header) return out;
  for (const part of header.split(/[,;]/)) {
    const m = /^\s*([a-z]+)\s*=\s*"?([^"]*)"?\s*$/i.exec(part);
    if (!m) continue;
    const key = m[1]!.toLowerCase();
    if (key === 'code' && /^\d{3}$/.test(m[2]!)) out.code = m[2]!;
    else if (key === 'example') out.example = m[2]!;
    else if (key === 'dynamic') out.dynamic = m[2]!.toLowerCase() === 'true';
  }
  return out;
}

/** The status a documented code answers with when none is asked: `404` → 404, `4XX` → 400, `default` → 200. */
export function statusOfCode(code: string): number {
  if (/^\d{3}$/.test(code)) return Number(code);
  if (/^[1-5]XX$/.test(code)) return Number(code[0]) * 100;
  return 200;
}

/** The operation's success response code: the first 2xx, then `2XX`, then `default` (undefined: none). */
export function successCode(op: Operation): string | undefined {
  const codes = op.responses.map((r) => r.code);
  return codes.filter((c) => /^2\d\d$/.test(c)).sort()[0] ?? codes.find((c) => c === '2XX') ?? codes.find((c) => c === 'DEFAULT');
}

export type Chosen = { response: ResponseSpec; status: number } | { unsatisfiable: string };

function listed(op: Operation): string {
  return op.responses.length ? op.responses.map((r) => r.code.toLowerCase() === 'default' ? 'default' : r.code).join(', ') : 'no responses';
}

/**
 * The response a request is answered with. `undefined` when the operation documents no response
 * at all (the caller answers 200/201 with no body).
 */
export function chooseResponse(op: Operation, code: string | undefined): Chosen | undefined {
  if (code !== undefined) {
    const response = op.responses.find((r) => r.code === code) ?? op.responses.find((r) => r.code === `${code[0]}XX`) ?? op.responses.find((r) => r.code === 'DEFAULT');
    if (response) return { response, status: Number(code) };
    return { unsatisfiable: `Prefer: code=${code}: ${op.label} documents ${listed(op)}` };
  }
  const success = successCode(op);
  const response = success !== undefined ? op.responses.find((r) => r.code === success) : [...op.responses].sort((a, b) => a.code.localeCompare(b.code))[0];
  return response ? { response, status: statusOfCode(response.code) } : undefined;
}

/** Whether an answer for `status` is a success one (the state is read or written). */
export function isSuccess(status: number): boolean {
  return status >= 200 && status < 300;
}

/** A named example the content lacks: the unsatisfiable message, else undefined. */
export function missingExample(op: Operation, response: ResponseSpec, content: MediaContent | undefined, prefer: Prefer): string | undefined {
  if (prefer.example === undefined) return undefined;
  if (content && prefer.example in content.examples) return undefined;
  const names = content ? Object.keys(content.examples) : [];
  return `Prefer: example=${prefer.example}: ${op.label} ${response.code.toLowerCase() === 'default' ? 'default' : response.code}${content ? ` (${content.type})` : ''} has ${names.length ? `the examples ${names.join(', ')}` : 'no named examples'}`;
}
