/**
 * An error answer the document gives an example for: a request the contract refuses (401) or
 * whose parameters or body break the schema (400/422) is answered with the documented
 * response's example for that status (its exact code, else its range `4XX`), as Prism does
 * (test/fixtures/prism/train-travel.json), in the media type the request's `Accept` picks.
 * mockyard's own message goes in the `Mockyard-Error` header (the problems list stays in the
 * journal and the log). Without such an example the answer is mockyard's JSON error body.
 */
import { negotiate } from '../../core/accept.js';
import { FastResponse } from '../../core/fast-response.js';
import { isHeaderValue } from '../../core/header-name.js';
import { isJsonMediaType, parseMediaType } from '../../core/media-type.js';
import type { Operation } from '../openapi-document/operations.js';

export const ERROR_MESSAGE_HEADER = 'Mockyard-Error';

/** A message as a header value (visible ASCII, at most 500 characters). */
function headerText(message: string): string {
  const text = message.replace(/[^\x20-\x7e]/g, '?');
  const cut = text.length > 500 ? `${text.slice(0, 497)}...` : text;
  return isHeaderValue(cut) ? cut : 'see the mockyard log';
}

export function documentedError(op: Operation | undefined, status: number, accept: string | null, message: string, headers: Record<string, string> = {}, head = false): Response | undefined {
  if (!op) return undefined;
  const response = op.responses.find((r) => r.code === String(status)) ?? op.responses.find((r) => r.code === `${String(status)[0]}XX`);
  const withExample = response?.contents.filter((c) => c.example !== undefined || Object.keys(c.examples).length > 0) ?? [];
  if (withExample.length === 0) return undefined;
  const type = negotiate(accept, withExample.map((c) => c.type), (t) => isJsonMediaType(parseMediaType(t).type)) ?? withExample[0]!.type;
  const content = withExample.find((c) => c.type === type)!;
  const value = content.example !== undefined ? content.example.value : Object.values(content.examples)[0];
  const json = isJsonMediaType(parseMediaType(content.type).type);
  const text = typeof value === 'string' && !json ? value : JSON.stringify(value);
  return FastResponse.bytes(new TextEncoder().encode(text), status, { 'Content-Type': content.type, ...headers, [ERROR_MESSAGE_HEADER]: headerText(message) }, head);
}
