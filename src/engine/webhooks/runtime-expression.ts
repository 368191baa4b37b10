/**
 * OpenAPI runtime expressions (3.0 and 3.1, "Runtime Expressions"), as callback keys use them:
 * `{$request.query.callbackUrl}/data`, `{$request.body#/callbackUrl}`, `{$response.body#/id}`,
 * `$method`, `$url`, `$statusCode`, `$request.header.X-Id`, `$request.path.id`.
 *
 *   expression = "$url" / "$method" / "$statusCode" / "$request." source / "$response." source
 *   source     = "header." token / "query." name / "path." name / "body" ["#" json-pointer]
 *
 * A small parser of our own: the maintained parser on npm (@swaggerexpert/openapi-runtime-expression,
 * an apg-lite grammar) only parses and validates — evaluation against an exchange would still be
 * ours — and it is not reachable from this project's registry mirror. The grammar is the six
 * lines above. Header names compare case-insensitively (HTTP), JSON pointers follow RFC 6901.
 */
import { isHeaderName } from '../../core/header-name.js';

export type ExpressionSource =
  | { kind: 'url' | 'method' | 'statusCode' }
  | { kind: 'header' | 'query' | 'path'; from: 'request' | 'response'; name: string }
  | { kind: 'body'; from: 'request' | 'response'; pointer: string[] };

/** A template: literal text and expressions in order. */
export type Template = Array<string | ExpressionSource>;

/** What an expression is evaluated against. */
export interface ExpressionScope {
  url: string;
  method: string;
  statusCode: number;
  request: { headers: Headers; query: URLSearchParams; path: Record<string, string>; body: unknown };
  response: { headers: Headers; body: unknown };
}

/** RFC 6901 pointer (`/a/b~1c`) → segments; throws on a pointer that does not start with `/`. */
export function parsePointer(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw new Error(`"${pointer}" is not a JSON pointer (it must start with "/")`);
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** One expression (`$request.body#/id`); throws naming what is wrong. */
export function parseExpression(text: string): ExpressionSource {
  if (text === '$url') return { kind: 'url' };
  if (text === '$method') return { kind: 'method' };
  if (text === '$statusCode') return { kind: 'statusCode' };
  const m = /^\$(request|response)\.(header|query|path|body)(.*)$/.exec(text);
  if (!m) throw new Error(`"${text}" is not a runtime expression ($url, $method, $statusCode, $request.… or $response.…)`);
  const from = m[1] as 'request' | 'response';
  const kind = m[2] as 'header' | 'query' | 'path' | 'body';
  const rest = m[3]!;
  if (kind === 'body') {
    if (rest === '') return { kind, from, pointer: [] };
    if (!rest.startsWith('#')) throw new Error(`"${text}": a body reference is $${from}.body or $${from}.body#/json/pointer`);
    return { kind, from, pointer: parsePointer(rest.slice(1)) };
  }
  if (!rest.startsWith('.') || rest.length < 2) throw new Error(`"${text}": $${from}.${kind} needs a name ($${from}.${kind}.name)`);
  const name = rest.slice(1);
  if (kind === 'header' && !isHeaderName(name)) throw new Error(`"${text}": "${name}" is not a header name`);
  return { kind, from, name };
}

/**
 * A callback key or any string with embedded expressions: `{$request.query.url}/data` → literal
 * and expression parts. A whole string that is one bare expression (`$request.body#/url`) is one
 * expression too.
 */
export function parseTemplate(text: string): Template {
  if (text.startsWith('$') && !text.includes('{')) return [parseExpression(text)];
  const out: Template = [];
  let i = 0;
  while (i < text.length) {
    const open = text.indexOf('{', i);
    if (open === -1) {
      out.push(text.slice(i));
      break;
    }
    if (open > i) out.push(text.slice(i, open));
    const close = text.indexOf('}', open);
    if (close === -1) throw new Error(`"${text}": "{" at ${open} is never closed`);
    out.push(parseExpression(text.slice(open + 1, close)));
    i = close + 1;
  }
  return out;
}

/** The value a JSON pointer names in `value`, or undefined. */
export function atPointer(value: unknown, pointer: readonly string[]): unknown {
  let v = value;
  for (const seg of pointer) {
    if (v === null || typeof v !== 'object') return undefined;
    if (Array.isArray(v)) {
      if (!/^(0|[1-9][0-9]*)$/.test(seg)) return undefined;
      v = v[Number(seg)];
    } else {
      if (!Object.prototype.hasOwnProperty.call(v, seg)) return undefined;
      v = (v as Record<string, unknown>)[seg];
    }
  }
  return v;
}

/** One expression's value (undefined when the exchange has nothing there). */
export function evaluate(source: ExpressionSource, scope: ExpressionScope): unknown {
  switch (source.kind) {
    case 'url':
      return scope.url;
    case 'method':
      return scope.method;
    case 'statusCode':
      return scope.statusCode;
    case 'header':
      return scope[source.from].headers.get(source.name) ?? undefined;
    case 'query':
      return source.from === 'request' ? (scope.request.query.get(source.name) ?? undefined) : undefined;
    case 'path':
      return source.from === 'request' ? scope.request.path[source.name] : undefined;
    case 'body':
      return atPointer(scope[source.from].body, source.pointer);
  }
}

/** A template as text; undefined when one of its expressions has no value (the callback is then skipped). */
export function expand(template: Template, scope: ExpressionScope): string | undefined {
  let out = '';
  for (const part of template) {
    if (typeof part === 'string') {
      out += part;
      continue;
    }
    const v = evaluate(part, scope);
    if (v === undefined || v === null) return undefined;
    out += typeof v === 'object' ? JSON.stringify(v) : String(v);
  }
  return out;
}
