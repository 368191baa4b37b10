/**
 * Start-up warnings for handler patterns written in another router's syntax, which this pattern
 * language (pattern.ts) would take as literal text or wildcards, so the handler would never match
 * what its author meant. Checked once per pattern by the options; never an error (the pattern is
 * valid, only surprising).
 */

interface ForeignSyntax {
  test: RegExp;
  /** What it looks like, and what to write instead. */
  advice: string;
}

const FOREIGN: readonly ForeignSyntax[] = [
  { test: /(?:^|\/)[^/]*\?[^/]*=/, advice: 'contains a query string ("?…="): patterns match the path only; read req.query in the handler' },
  { test: /(?:^|[^\w$]):[A-Za-z_$][\w$]*\(/, advice: 'uses a path-to-regexp custom pattern (":id(\\\\d+)"); write {id:\\\\d+}' },
  { test: /(?:^|[^\w$]):[A-Za-z_$][\w$]*[?*+](?:\/|$)/, advice: 'uses a path-to-regexp modifier (":id?", ":id*", ":id+"); write {id} for one segment or ** for any number' },
  { test: /\[\[?(?:\.\.\.)?[A-Za-z_$][\w$]*\]\]?/, advice: 'uses file-system routing brackets ("[id]", "[...slug]"); write {id}, or ** for a catch-all' },
  { test: /<(?:[a-z]+:)?[A-Za-z_$][\w$]*>/, advice: 'uses an angle-bracket parameter ("<id>", "<int:id>"); write {id} (or {id:\\\\d+})' },
  { test: /\{\{[^}]*\}\}/, advice: 'uses a template variable ("{{id}}"); write {id}' },
  { test: /(?:^|\/)\$[A-Za-z_][\w]*(?:\/|$)/, advice: 'uses a "$name" segment; write {name}' },
  { test: /\(\.\*\)|\(\?:|\\d|\\w|^\^|\$$/, advice: 'looks like a regular expression; use {name:regex} inside one segment, * or **' },
];

/** The warning for `pattern` (`option` names it), or undefined when it looks like this router's syntax. */
export function lintPattern(pattern: string, option: string): string | undefined {
  // Custom regexes inside {name:…} are ours: look at the pattern without them.
  const outside = stripBraces(pattern);
  for (const f of FOREIGN) {
    if (f.test.test(outside)) return `${option} ${JSON.stringify(pattern)} ${f.advice}; as written it cannot match the path you probably mean`;
  }
  return undefined;
}

/** The pattern with every `{…}` token (balanced, `\` escapes) replaced by `{}`. */
function stripBraces(pattern: string): string {
  let out = '';
  let depth = 0;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (depth > 0 && c === '\\') {
      i++;
      continue;
    }
    if (c === '{') {
      if (depth === 0 && pattern[i + 1] === '{') return pattern; // `{{x}}`: let the template check see it
      if (depth++ === 0) out += '{';
    } else if (c === '}' && depth > 0) {
      if (--depth === 0) out += '}';
    } else if (depth === 0) out += c;
  }
  return out;
}
