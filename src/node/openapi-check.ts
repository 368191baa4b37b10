/**
 * `mockyard check openapi.yaml traffic.har [--prefix P]`: replays recorded traffic against the
 * document (contract tests in CI). Each HAR entry's request is matched to an operation (paths
 * below the document's server path, or `--prefix`) and checked as the `openapi` layer checks it
 * (contract.ts: credentials, media types; request-validator.ts: parameters and JSON body), and
 * its answer against the documented response for its status and content type, as the layer
 * checks answers (response-check.ts: one rule for both, mockyard's own error answers apart). Prints one line per problem with its JSON pointer and a summary;
 * exit code 1 when anything drifted or nothing was checked (an empty log, or none of it under the
 * prefix: the line names the prefix its paths match), 0 when all matched, 2 for bad arguments.
 * Callbacks: an entry whose method and URL are an OpenAPI callback of an earlier 2xx entry (the
 * callback's expression resolved with that entry's request and answer, as the mock resolves it
 * when it sends one: engine/webhooks/document-hooks.ts, runtime-expression.ts) has its JSON body
 * checked against the callback's requestBody schema (the payload check the webhooks layer uses).
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { Har } from 'har-format';
import { base64ToBytes } from '../core/base64.js';
import { NULL_BODY_STATUS } from '../core/fast-response.js';
import { isJsonMediaType, parseMediaType } from '../core/media-type.js';
import { documentModel } from '../engine/openapi-document/document-loader.js';
import { contractRefusal } from '../engine/openapi/contract.js';
import { REDACTED } from '../engine/recordings/har.js';
import { compileDocument, type Problem } from '../engine/openapi/request-validator.js';
import { checkAnswer } from '../engine/openapi/response-check.js';
import { payloadChecker } from '../engine/openapi/payload-check.js';
import { loadDocumentHooks, type DocumentHooks, type DocumentRequest } from '../engine/webhooks/document-hooks.js';
import { expand } from '../engine/webhooks/runtime-expression.js';
import { createLogger } from '../core/logger.js';
import { loadDocumentFile } from './openapi-document.js';

export interface CheckResult {
  code: number;
  lines: string[];
}

const pointer = (p: Problem) => `/${[p.in, ...(p.at ? p.at.split('.') : [])].map((s) => s.replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`;

export async function checkTraffic(documentFile: string, harFile: string, options: { prefix?: string } = {}): Promise<CheckResult> {
  const doc = await loadDocumentFile(resolve(documentFile));
  const { model } = documentModel(doc);
  const operations = new Map(model.operations.map((o) => [o.label, o]));
  const lines: string[] = [];
  const compiled = compileDocument(doc, { onUncompilable: (label, err) => lines.push(`warning: ${label} cannot be validated (${(err as Error).message})`) });
  const har = JSON.parse(await readFile(resolve(harFile), 'utf8')) as Har;
  const prefix = (options.prefix ?? model.basePath).replace(/\/+$/, '');
  let drifted = 0;
  let checked = 0;
  // Entries outside the prefix (a browser's log holds the page's assets too), and where the
  // document's operations would have matched them: the `--prefix` the log needs.
  let outside = 0;
  const elsewhere = new Map<string, number>();
  const hooks = await callbackHooks(doc, lines);
  // `METHOD href` of each callback the earlier entries asked for → the callback and its cause.
  const expected = new Map<string, { request: DocumentRequest; cause: string }>();
  for (const entry of har.log?.entries ?? []) {
    const url = new URL(entry.request.url);
    const method = entry.request.method.toUpperCase();
    const where = `${method} ${url.pathname}${url.search} → ${entry.response.status}`;
    const callback = expected.get(`${method} ${url.href}`);
    if (callback && hooks) {
      checked++;
      const problems = callbackProblems(hooks, callback.request, entry);
      if (problems.length) {
        drifted++;
        lines.push(`drift: ${method} ${url.href} (callback ${callback.request.name} of ${callback.cause})`);
        for (const p of problems) lines.push(`  ${p}`);
      }
      continue;
    }
    if (prefix && url.pathname !== prefix && !url.pathname.startsWith(`${prefix}/`)) {
      outside++;
      const at = prefixMatching(url.pathname, (rest) => 'operation' in compiled.match(method, rest));
      if (at !== undefined) elsewhere.set(at, (elsewhere.get(at) ?? 0) + 1);
      continue;
    }
    checked++;
    const problems: string[] = [];
    const match = compiled.match(method, url.pathname.slice(prefix.length));
    if (!('operation' in match)) {
      problems.push(match.status === 405 ? `the document has no ${method} for this path (it has ${match.allow})` : 'the document has no such path');
    } else {
      const op = match.operation;
      const headers = new Headers(entry.request.headers.map((h) => [h.name, h.value] as [string, string]));
      const text = entry.request.postData?.text;
      const model = operations.get(op.label);
      // A recorded log (`mockyard record --har`) keeps a credential header's name with its value `[redacted]`: it was sent.
      const withheld = new Set(entry.request.headers.filter((h) => h.value === REDACTED).map((h) => h.name.toLowerCase()));
      const refusal = model ? contractRefusal(model, headers, url.searchParams, text !== undefined && text !== '', true, withheld) : undefined;
      if (refusal) problems.push(`request: ${refusal.message} (${refusal.status})`);
      let body: unknown;
      if (text && isJsonMediaType(parseMediaType(headers.get('content-type')).type)) {
        try {
          body = JSON.parse(text);
        } catch {
          problems.push('request: the body is not valid JSON');
        }
      }
      for (const p of op.check({ path: match.params, query: url.searchParams, headers, body })) problems.push(`request ${pointer(p)}: ${p.message}`);
      const status = entry.response.status;
      const callbacks = hooks && status >= 200 && status < 300 ? hooks.callbacks.get(op.label) : undefined;
      if (callbacks) {
        const responseHeaders = new Headers(entry.response.headers.map((h) => [h.name, h.value] as [string, string]));
        const scope = {
          url: url.href,
          method,
          statusCode: status,
          request: { headers, query: url.searchParams, path: match.params, body },
          response: { headers: responseHeaders, body: jsonOf(entry.response.content?.text, entry.response.content?.mimeType ?? responseHeaders.get('content-type')) },
        };
        for (const cb of callbacks) {
          const target = expand(cb.url!, scope);
          if (target === undefined || !URL.canParse(target)) continue;
          expected.set(`${cb.method} ${new URL(target).href}`, { request: cb, cause: `${method} ${url.pathname}${url.search}` });
        }
      }
      if (model && status >= 200 && status <= 599) {
        // Without a recorded body only the status is checked (the content type goes with the body).
        const type = entry.response.content?.mimeType ?? entry.response.headers.find((h) => h.name.toLowerCase() === 'content-type')?.value;
        const recorded = entry.response.content?.text;
        const raw = recorded === undefined || recorded === '' || NULL_BODY_STATUS.has(status) ? null : entry.response.content?.encoding === 'base64' ? base64ToBytes(recorded) : recorded;
        const length = raw === null ? 0 : typeof raw === 'string' ? new TextEncoder().encode(raw).byteLength : raw.byteLength;
        const answer = new Response(raw as BodyInit | null, { status, headers: raw !== null && type ? { 'content-type': type, 'content-length': String(length) } : {} });
        for (const p of (await checkAnswer(model, op, method, answer, { readLimit: Infinity })).problems) problems.push(p.pointer ? `response /body${p.pointer}: ${p.message}` : `response: ${p.message}`);
      }
    }
    if (problems.length) {
      drifted++;
      lines.push(`drift: ${where}`);
      for (const p of problems) lines.push(`  ${p}`);
    }
  }
  const title = model.title || documentFile;
  if (checked === 0) {
    // Nothing checked is not "all match": a CI step must not pass on a log it never read.
    const hint = [...elsewhere].sort((a, b) => b[1] - a[1])[0];
    lines.push(
      outside === 0
        ? `nothing checked against ${title}: the log holds no exchanges.`
        : `nothing checked against ${title}: none of the log's ${outside} exchange(s) is under ${prefix} (the document's server path)` +
            (hint ? `; ${hint[1]} match its operations under ${hint[0] || '/'}: run again with --prefix ${hint[0] || '/'}.` : '; --prefix names the path the API was recorded at.'),
    );
    return { code: 1, lines };
  }
  const skipped = outside ? ` (${outside} exchange(s) outside ${prefix} not checked)` : '';
  lines.push(`${checked} exchange(s) checked against ${title}: ${drifted ? `${drifted} drifted` : 'all match the document'}${skipped}.`);
  return { code: drifted ? 1 : 0, lines };
}

/** The shortest leading part of `pathname` under which `matches` finds an operation ('' for none stripped), if any. */
function prefixMatching(pathname: string, matches: (rest: string) => boolean): string | undefined {
  const segments = pathname.split('/').slice(1);
  for (let k = 0; k < segments.length; k++) {
    const head = k === 0 ? '' : `/${segments.slice(0, k).join('/')}`;
    if (matches(pathname.slice(head.length))) return head;
  }
  return undefined;
}

/** The document's callbacks (undefined when it has none: nothing to look for). */
async function callbackHooks(doc: Record<string, unknown>, lines: string[]): Promise<DocumentHooks | undefined> {
  const { deref, model, route } = documentModel(doc);
  const operations = model.operations.filter((o) => o.op.callbacks !== undefined);
  if (operations.length === 0) return undefined;
  const sink = { info() {}, error() {}, warn: (message: string) => lines.push(`warning: ${message}`) };
  const routeOf = (method: string, subPath: string) => {
    const m = route(method, subPath);
    return 'operation' in m ? { label: m.operation.label, params: m.params } : undefined;
  };
  const hooks = await loadDocumentHooks(async () => ({ doc, deref, operations, route: routeOf, seed: 0, check: payloadChecker(doc, deref) }), createLogger('warn', sink, ''));
  return hooks.callbacks.size > 0 ? hooks : undefined;
}

function jsonOf(text: string | undefined, type: string | null | undefined): unknown {
  if (!text || !isJsonMediaType(parseMediaType(type ?? null).type)) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** What a recorded callback request breaks in its callback's requestBody. */
function callbackProblems(hooks: DocumentHooks, cb: DocumentRequest, entry: Har['log']['entries'][number]): string[] {
  const text = entry.request.postData?.text;
  const type = entry.request.postData?.mimeType ?? entry.request.headers.find((h) => h.name.toLowerCase() === 'content-type')?.value;
  if (!cb.media) return [];
  if (text === undefined || text === '') return ['request: the callback has no body (the document describes one)'];
  if (!isJsonMediaType(parseMediaType(type ?? null).type)) return [`request: the content type is ${type ?? 'missing'} (the document describes ${cb.media.type})`];
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return ['request: the body is not valid JSON'];
  }
  return hooks.problems(cb, body).map((p) => {
    const space = p.indexOf(' ');
    const at = p.slice(0, space);
    return `request /body${at === '/' ? '' : at}: ${p.slice(space + 1)}`;
  });
}

/** The `check` command's argument handling (exit 2 on bad arguments). */
export async function runCheckCommand(argv: string[], io: { cwd: string; out(line: string): void; err(line: string): void }): Promise<{ code: number }> {
  let parsed: { values: { prefix?: string }; positionals: string[] };
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, strict: true, options: { prefix: { type: 'string' } } });
  } catch (err) {
    io.err(`mockyard: ${(err as Error).message}\nRun "mockyard --help" for usage.`);
    return { code: 2 };
  }
  if (parsed.positionals.length !== 2) {
    io.err('mockyard: check takes an OpenAPI document and a HAR file (mockyard check openapi.yaml traffic.har)\nRun "mockyard --help" for usage.');
    return { code: 2 };
  }
  try {
    const [doc, har] = parsed.positionals.map((p) => resolve(io.cwd, p)) as [string, string];
    const result = await checkTraffic(doc, har, { prefix: parsed.values.prefix });
    for (const line of result.lines) io.out(line);
    return { code: result.code };
  } catch (err) {
    io.err(`mockyard: check: ${(err as Error).message}`);
    return { code: 2 };
  }
}
