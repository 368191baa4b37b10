/**
 * The HAR 1.2 log of a record session (types: @types/har-format, the maintained definitions of
 * the spec). One entry per proxied exchange, whatever its status, with secrets redacted:
 * `Authorization`, `Proxy-Authorization`, `Cookie`, `Set-Cookie`, the names in `proxy.headers`
 * (an API key the proxy adds) and `proxy.record.redact` become `[redacted]`, and the parsed
 * `cookies` lists stay empty. Bodies: text as text, anything else base64 (`encoding`), up to the
 * recorder's capture limit (past it `text` is omitted and a `comment` says so). Request bodies are
 * `postData` (`text`; base64 for binary types, said in its `comment`).
 */
import type { Content, Entry, Har, Header, PostData, QueryString } from 'har-format';
import { bytesToBase64 } from '../../core/base64.js';
import { isTextMediaType, parseMediaType } from '../../core/media-type.js';

export const REDACTED = '[redacted]';
export const ALWAYS_REDACTED: readonly string[] = ['authorization', 'proxy-authorization', 'cookie', 'set-cookie'];

/** Names that say they carry a credential (`X-Auth-Token`, `X-Api-Key`, `X-CSRF-Token`, `X-Session-Id`, …). */
const CREDENTIAL_NAME = /(^|[-_])(auth|authorization|token|secret|password|passwd|api[-_]?key|apikey|session([-_]?id)?|csrf|xsrf|signature|credentials?)([-_]|$)/;

/** Whether a recording never keeps a header's value (lower-case name): the redact list, or a credential by its name. */
export function isRedacted(lowerName: string, redact: ReadonlySet<string>): boolean {
  return redact.has(lowerName) || CREDENTIAL_NAME.test(lowerName);
}

export function harHeaders(headers: Headers, redact: ReadonlySet<string>): Header[] {
  return [...headers].map(([name, value]) => ({ name, value: isRedacted(name, redact) ? REDACTED : value }));
}

export function harContent(bytes: Uint8Array | null, size: number, mimeType: string): Content {
  const content: Content = { size, mimeType };
  if (bytes === null) {
    if (size > 0) content.comment = 'body not kept: larger than the capture limit';
    return content;
  }
  const type = parseMediaType(mimeType).type;
  if (isTextMediaType(type)) content.text = new TextDecoder().decode(bytes);
  else if (bytes.byteLength > 0) {
    content.text = bytesToBase64(bytes);
    content.encoding = 'base64';
  }
  return content;
}

export interface HarExchange {
  startedDateTime: string;
  method: string;
  url: string;
  requestHeaders: Headers;
  status: number;
  statusText: string;
  responseHeaders: Headers;
  body: Uint8Array | null;
  bodySize: number;
  /** The request body (null: over the capture limit; empty: none) and its size. */
  requestBody?: Uint8Array | null;
  requestBodySize?: number;
  /** ms until the answer's headers, ms to read its body. */
  wait: number;
  receive: number;
}

/** A request body as HAR `postData`: text (base64 for binary types, said in `comment`). */
function postData(bytes: Uint8Array | null, size: number, mimeType: string): PostData {
  const content = harContent(bytes, size, mimeType);
  const out: PostData = { mimeType, text: content.text ?? '' };
  if (content.encoding === 'base64') out.comment = 'text is base64';
  else if (content.comment) out.comment = content.comment;
  return out;
}

export function harEntry(x: HarExchange, redact: ReadonlySet<string>): Entry {
  const url = new URL(x.url);
  const mimeType = x.responseHeaders.get('content-type') ?? '';
  return {
    startedDateTime: x.startedDateTime,
    time: x.wait + x.receive,
    request: {
      method: x.method,
      url: x.url,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: harHeaders(x.requestHeaders, redact),
      queryString: [...url.searchParams].map(([name, value]): QueryString => ({ name, value })),
      headersSize: -1,
      bodySize: x.requestBodySize ?? 0,
      ...(x.requestBodySize ? { postData: postData(x.requestBody ?? null, x.requestBodySize, x.requestHeaders.get('content-type') ?? '') } : {}),
    },
    response: {
      status: x.status,
      statusText: x.statusText,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: harHeaders(x.responseHeaders, redact),
      content: harContent(x.body, x.bodySize, mimeType),
      redirectURL: x.responseHeaders.get('location') ?? '',
      headersSize: -1,
      bodySize: x.bodySize,
    },
    cache: {},
    timings: { send: 0, wait: x.wait, receive: x.receive },
  };
}

export function harLog(entries: readonly Entry[], version: string): Har {
  return { log: { version: '1.2', creator: { name: 'mockyard', version }, entries: [...entries] } };
}
