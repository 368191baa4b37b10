/**
 * Fenced code blocks of a Markdown file: the language, the info string's other words, the code
 * and the line the block starts on. Fences are ``` or ~~~ (three or more), closed by a fence of
 * the same character at least as long (CommonMark); an unclosed fence runs to the end of the file.
 */
export interface MarkdownBlock {
  /** First word of the info string (`js`, `ts`, `sh`, …), lower case; '' when there is none. */
  lang: string;
  /** The other words of the info string (`runnable`, …). */
  flags: string[];
  code: string;
  /** 1-based line of the opening fence. */
  line: number;
}

const OPEN = /^ {0,3}(`{3,}|~{3,})\s*([^`]*)$/;

export function markdownBlocks(text: string): MarkdownBlock[] {
  const lines = text.split('\n');
  const blocks: MarkdownBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = OPEN.exec(lines[i]!);
    if (!open) continue;
    const fence = open[1]!;
    const [lang = '', ...flags] = open[2]!.trim().split(/\s+/).filter(Boolean);
    const close = new RegExp(`^ {0,3}${fence[0] === '`' ? '`' : '~'}{${fence.length},}\\s*$`);
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length && !close.test(lines[j]!); j++) body.push(lines[j]!);
    blocks.push({ lang: lang.toLowerCase(), flags, code: body.join('\n') + '\n', line: i + 1 });
    i = j;
  }
  return blocks;
}
