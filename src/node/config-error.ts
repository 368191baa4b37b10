/**
 * What went wrong while loading a config file, said so a user can find it:
 *
 *   mockyard: syntax error in /app/mockyard.config.mjs:3:34: Unexpected token ';'
 *     3 |   mock: { endpointPrefix: '/api' ;
 *       |                                  ^
 *
 * Where the location comes from:
 * - Node's own decorated stack (`file:line` + source line + caret): CommonJS syntax errors;
 * - a syntax error from `import()` of an ES module carries no location on Node 20, so the file
 *   is checked again with `node --check` (the same V8 parser, only on this error path) and its
 *   report is read; when the file itself is fine the error is in a module it imports, and the
 *   message says so;
 * - errors thrown while the config runs (`ReferenceError`, a throwing function): the first stack
 *   frame in a `file:` URL;
 * - `.ts` configs transpiled by Vite's oxc on Node 20: the parse error's `loc`.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

interface Location {
  file: string;
  line: number;
  /** 1-based; undefined when the report gives only a line. */
  column?: number;
}

/** Strips terminal colour codes (oxc's reports are coloured). */
const plain = (text: string): string => text.replace(/\u001b\[[0-9;]*m/g, '');

/** `path:line` + source line + caret, as V8 decorates a syntax error (CommonJS, `node --check`). */
function decoratedLocation(text: string): Location | undefined {
  const m = /^(.+?):(\d+)\r?\n(.*)\r?\n([ \t]*)\^/m.exec(text) ?? /^(.+?):(\d+)\r?\n/.exec(text);
  if (!m) return undefined;
  const file = m[1]!.startsWith('file:') ? safeFilePath(m[1]!) : m[1]!;
  if (file === undefined) return undefined;
  return { file, line: Number(m[2]), column: m[4] !== undefined ? m[4].length + 1 : undefined };
}

function safeFilePath(url: string): string | undefined {
  try {
    return fileURLToPath(url.replace(/\?[^:]*$/, ''));
  } catch {
    return undefined;
  }
}

/** The first `file:` frame of a stack (`at file:///a/b.mjs?t=1:3:9` or `at f (file:///…:3:9)`). */
function frameLocation(stack: string): Location | undefined {
  const m = /(file:\/\/[^\s()]+?):(\d+):(\d+)\)?$/m.exec(stack);
  if (!m) return undefined;
  const file = safeFilePath(m[1]!);
  return file === undefined ? undefined : { file, line: Number(m[2]), column: Number(m[3]) };
}

/** `node --check file`: the location of the file's first syntax error, or undefined if it has none. */
function checkSyntax(file: string): { location?: Location; message?: string } | undefined {
  const r = spawnSync(process.execPath, ['--check', file], { encoding: 'utf8', timeout: 10_000 });
  if (r.status === 0 || r.error) return undefined;
  const message = /^SyntaxError: (.*)$/m.exec(r.stderr)?.[1];
  return { location: decoratedLocation(r.stderr), message };
}

/** Two lines of source with a caret under the column, or '' when the file cannot be read. */
function codeFrame(loc: Location): string {
  let line: string | undefined;
  try {
    line = readFileSync(loc.file, 'utf8').split(/\r?\n/)[loc.line - 1];
  } catch {
    line = undefined;
  }
  if (line === undefined || line.length > 500) return '';
  const n = String(loc.line);
  const pad = ' '.repeat(n.length);
  // Tabs stay tabs in the caret line, so the caret lines up in any terminal.
  const lead = loc.column !== undefined ? line.slice(0, loc.column - 1).replace(/[^\t]/g, ' ') : undefined;
  return `\n  ${n} | ${line}${lead !== undefined ? `\n  ${pad} | ${lead}^` : ''}`;
}

const where = (loc: Location) => `${loc.file}:${loc.line}${loc.column !== undefined ? `:${loc.column}` : ''}`;

/**
 * An Error whose message names the file, line and column of what failed while loading `file`
 * (an absolute path; `shownAs` maps a temporary file back to the one the user wrote).
 */
export function configLoadError(err: unknown, file: string, shownAs: (path: string) => string = (p) => p): Error {
  const e = err as { name?: string; message?: string; stack?: string; errors?: Array<{ message?: string; loc?: { line: number; column: number; file?: string } }> };
  const name = typeof e?.name === 'string' ? e.name : 'Error';
  const message = plain(typeof e?.message === 'string' ? e.message : String(err));
  const wrap = (loc: Location | undefined, text: string, what: string) => {
    if (!loc) return new Error(`mockyard: ${what} in ${shownAs(file)}: ${text}`, { cause: err });
    const shown = { ...loc, file: shownAs(loc.file) };
    return new Error(`mockyard: ${what} in ${where(shown)}: ${text}${codeFrame(loc)}`, { cause: err });
  };

  // oxc (Vite's transformWithOxc): `errors[0].loc`, 0-based column.
  const parse = Array.isArray(e?.errors) ? e.errors.find((x) => x?.loc) : undefined;
  if (parse?.loc) {
    const text = plain(parse.message ?? message).split('\n')[0]!.replace(/^\[[A-Z_]+\]\s*/, '').trim();
    return wrap({ file: parse.loc.file ?? file, line: parse.loc.line, column: parse.loc.column + 1 }, text, 'syntax error');
  }
  if (name === 'SyntaxError') {
    const decorated = typeof e.stack === 'string' ? decoratedLocation(e.stack) : undefined;
    if (decorated) return wrap(decorated, message, 'syntax error');
    const checked = checkSyntax(file);
    if (checked) return wrap(checked.location, checked.message ?? message, 'syntax error');
    return new Error(`mockyard: syntax error in a module imported by ${shownAs(file)}: ${message}`, { cause: err });
  }
  const frame = typeof e?.stack === 'string' ? frameLocation(e.stack) : undefined;
  return wrap(frame, `${name}: ${message}`, 'error while loading the config');
}
