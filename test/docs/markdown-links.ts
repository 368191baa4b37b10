/**
 * The links and heading ids of a Markdown file, as GitHub renders it, for the link checker:
 * code (fenced blocks, inline code spans) holds no links and no headings; a heading's id is its
 * text lower-cased, without punctuation, spaces turned into `-`, and `-1`, `-2`, … added to
 * repeats.
 */
import { markdownBlocks } from './markdown-blocks.js';

/** The text with every fenced block's lines (fences included) emptied, so line numbers hold. */
function withoutFences(text: string): string {
  const lines = text.split('\n');
  for (const block of markdownBlocks(text)) {
    const last = block.line + block.code.split('\n').length - 1; // the closing fence's line
    for (let i = block.line - 1; i < Math.min(last, lines.length); i++) lines[i] = '';
  }
  return lines.join('\n');
}

/** Inline code spans (within a paragraph) replaced by spaces, newlines kept. */
function withoutCodeSpans(text: string): string {
  return text.replace(/(`+)(?:(?!\n[ \t]*\n)[\s\S])*?[^`]\1(?!`)/g, (span) => span.replace(/[^\n]/g, ' '));
}

const LINK = /!?\[[^\]]*\]\(\s*(<[^>\n]*>|[^\s)]+)(?:\s+(?:"[^"]*"|'[^']*'))?\s*\)/g;
const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/** The targets of the inline links and images that point into the repository (no scheme). */
export function relativeLinks(markdown: string): Array<{ target: string; line: number }> {
  const text = withoutCodeSpans(withoutFences(markdown));
  const links: Array<{ target: string; line: number }> = [];
  for (const m of text.matchAll(LINK)) {
    const raw = m[1]!;
    const target = raw.startsWith('<') ? raw.slice(1, -1) : raw;
    if (target === '' || SCHEME.test(target)) continue;
    links.push({ target, line: text.slice(0, m.index).split('\n').length });
  }
  return links;
}

/** GitHub's id for a heading's text. */
function slug(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // a link or image counts by its text
    .replace(/<[^>]+>/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** The ids of the ATX headings (`# …` to `###### …`) outside code. */
export function headingIds(markdown: string): Set<string> {
  const ids = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of withoutFences(markdown).split('\n')) {
    const m = /^ {0,3}#{1,6}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/.exec(line);
    if (!m) continue;
    const base = slug(m[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    ids.add(n === 0 ? base : `${base}-${n}`);
  }
  return ids;
}
