/**
 * Turns a reStructuredText file (the kernel's Documentation/) into Markdown the engine's loader
 * reads as sections: underlined (and over-and-underlined) titles become `#` headings, levels in
 * the order their adornment styles first appear, as docutils assigns them; literal blocks (an
 * indented block after a `::` paragraph) become fenced code. Directives, roles and tables stay as
 * text: this is benchmark input, not a renderer.
 */
export interface MarkdownPage {
  markdown: string;
  /** Section titles in document order. */
  headings: string[];
}

const ADORNMENT = /^([=\-~^"'`#*+.:_])\1{2,}\s*$/;

export function rstToMarkdown(rst: string): MarkdownPage {
  const lines = rst.replace(/\r\n?/g, '\n').split('\n');
  const styles: string[] = [];
  const headings: string[] = [];
  const out: string[] = [];
  const levelOf = (style: string) => {
    if (!styles.includes(style)) styles.push(style);
    return Math.min(6, styles.indexOf(style) + 1);
  };
  let index = 0;
  let literalPending = false;
  while (index < lines.length) {
    const line = lines[index]!;
    const next = lines[index + 1] ?? '';
    const afterNext = lines[index + 2] ?? '';
    // Over- and underlined title: ===== / Title / =====
    if (ADORNMENT.test(line) && next.trim() !== '' && !ADORNMENT.test(next) && ADORNMENT.test(afterNext)) {
      const title = next.trim();
      out.push(`${'#'.repeat(levelOf(`over${line.trim()[0]}`))} ${title}`, '');
      headings.push(title);
      index += 3;
      continue;
    }
    // Underlined title: Title / =====
    if (
      line.trim() !== '' &&
      !/^\s/.test(line) &&
      ADORNMENT.test(next) &&
      next.trim().length >= line.trim().length - 1 &&
      (index === 0 || (lines[index - 1] ?? '').trim() === '')
    ) {
      const title = line.trim();
      out.push(`${'#'.repeat(levelOf(next.trim()[0]!))} ${title}`, '');
      headings.push(title);
      index += 2;
      continue;
    }
    // An indented block after a paragraph ending in "::" is a literal block.
    if (literalPending && line.trim() !== '' && /^\s/.test(line)) {
      const block: string[] = [];
      while (index < lines.length && ((lines[index] ?? '').trim() === '' || /^\s/.test(lines[index]!))) {
        block.push(lines[index]!);
        index++;
      }
      while (block.length > 0 && block.at(-1)!.trim() === '') block.pop();
      const indent = Math.min(...block.filter((text) => text.trim() !== '').map((text) => text.search(/\S/)));
      out.push('```', ...block.map((text) => text.slice(indent)), '```', '');
      literalPending = false;
      continue;
    }
    if (line.trim() !== '') literalPending = line.trimEnd().endsWith('::');
    out.push(line);
    index++;
  }
  return { markdown: out.join('\n'), headings };
}
