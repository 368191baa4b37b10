/**
 * The CLI's request log: one line per request, at `info`, on stdout.
 *
 *   12:04:31.207 GET    /api/posts/1?_embed=comments   200   0.6 ms  collection posts.json#1
 *
 * time (local, ms), method, path with query, status, duration (engine receipt → answer ready),
 * and what answered: `file users.json`, `collection posts.json#1`, `handler GET /users/{id}`,
 * `404` (nothing matched), `forwarded`, or the engine (`collector`, `home page`). Coloured on a
 * TTY (status by class, details dimmed), plain otherwise.
 *
 * The data comes from `MockApi.observe` (the pipeline's observer hook: answeredBy, fast path
 * included) and, for the other engines of the CLI host, from `logEngine` below.
 */
import type { Engine } from '../core/engine.js';
import { observeEngine } from '../core/observed-engine.js';
import type { Exchange } from '../core/exchange.js';

export interface LogLine {
  method: string;
  pathname: string;
  search: string;
  status: number | undefined;
  ms: number;
  /** What answered, already worded (`file users.json`). */
  what: string;
}

const C = { dim: '\x1b[2m', reset: '\x1b[0m', green: '\x1b[32m', cyan: '\x1b[36m', yellow: '\x1b[33m', red: '\x1b[31m', bold: '\x1b[1m' };

function statusColor(status: number | undefined): string {
  if (status === undefined) return C.dim;
  if (status >= 500) return C.red;
  if (status >= 400) return C.yellow;
  if (status >= 300) return C.cyan;
  return C.green;
}

/** Local `HH:MM:SS.` of the current second (one Date per second under load; zone offsets are whole seconds). */
let clockSecond = -1;
let clockPrefix = '';
function clock(): string {
  const now = Date.now();
  const second = Math.floor(now / 1000);
  if (second !== clockSecond) {
    const d = new Date(now);
    const p = (n: number) => String(n).padStart(2, '0');
    clockPrefix = `${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}.`;
    clockSecond = second;
  }
  return clockPrefix + String(now - second * 1000).padStart(3, '0');
}

/** Control characters of a request path never reach the terminal as such. */
function printable(s: string): string {
  // eslint-disable-next-line no-control-regex
  return s.replace(/[\x00-\x1f\x7f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

export function formatLogLine(line: LogLine, color: boolean): string {
  const path = printable(`${line.pathname}${line.search}`);
  const status = line.status === undefined ? '-' : String(line.status);
  const ms = `${line.ms < 10 ? line.ms.toFixed(1) : Math.round(line.ms)} ms`;
  if (!color) return `${clock()} ${line.method.padEnd(6)} ${path}  ${status}  ${ms}  ${line.what}`;
  return `${C.dim}${clock()}${C.reset} ${C.bold}${line.method.padEnd(6)}${C.reset} ${path}  ${statusColor(line.status)}${status}${C.reset}  ${C.dim}${ms}  ${line.what}${C.reset}`;
}

/** Words for the mock API's `answeredBy`. */
export function describeAnswer(x: Pick<Exchange, 'answeredBy' | 'status'>): string {
  const a = x.answeredBy;
  if (x.status === undefined || a === undefined) return 'forwarded';
  switch (a.layer) {
    case 'files': return a.detail ? `file ${printable(a.detail)}` : 'files';
    case 'collections': return a.detail ? `collection ${printable(a.detail)}` : 'collections';
    case 'handlers': return a.detail ? `handler ${printable(a.detail)}` : 'handler';
    case 'not-found': return 'nothing matched';
    case 'preset-hints': return "nothing matched (an item of a JSON array: see preset 'json-server')";
    default: return a.detail ? `${a.layer} ${printable(a.detail)}` : a.layer;
  }
}

/** The log line of a mock API exchange. */
export function exchangeLine(x: Exchange): LogLine {
  return { method: x.method, pathname: x.pathname, search: x.search, status: x.status, ms: x.ms, what: describeAnswer(x) };
}

/**
 * The same engine, reporting each request it answers (`what` names it in the log), through THE
 * outside observer (src/core/observed-engine.ts). Other members (basePath, close, upgrade…) are
 * the engine's own.
 */
export function logEngine<E extends Engine>(engine: E, what: string, report: (line: LogLine) => void): E {
  return observeEngine(engine, (x) => report({ method: x.method, pathname: x.pathname, search: x.search, status: x.status, ms: x.ms, what }), () => ({ layer: what, detail: undefined }));
}
