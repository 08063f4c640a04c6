import { splitLines, type TextLine } from '../../lexicon/index.js';
import type { Block, BlockType } from '../document.js';

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const ATX_HEADING = /^ {0,3}(#{1,6})(?:\s+(.*?))?\s*#*\s*$/;
const SETEXT_UNDERLINE = /^ {0,3}(=+|-+)\s*$/;
const LIST_ITEM = /^\s*(?:[-*+]|\d{1,9}[.)])\s+/;
const TABLE_ROW = /^\s*\|/;
const MATH_FENCE = /^\s*\$\$/;

/**
 * Splits Markdown into blocks without a full CommonMark parse: fenced code, display math ($$),
 * ATX and setext headings, tables, lists and paragraphs. Fences and math are kept whole because
 * cutting them produces chunks that neither a reader nor an embedder can use.
 */
export function parseMarkdownBlocks(text: string): Block[] {
  const lines = splitLines(text);
  const blocks: Block[] = [];
  let open = null as { type: BlockType; start: number; end: number } | null;

  const close = () => {
    if (open) blocks.push({ type: open.type, start: open.start, end: open.end });
    open = null;
  };
  const extend = (type: BlockType, line: TextLine) => {
    if (open && open.type === type) open.end = line.end;
    else {
      close();
      open = { type, start: line.start, end: line.end };
    }
  };

  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    const fence = FENCE.exec(line.text);
    if (fence) {
      close();
      const marker = fence[1]!;
      let last = index;
      for (let next = index + 1; next < lines.length; next++) {
        last = next;
        const candidate = lines[next]!.text.trim();
        if (candidate.startsWith(marker[0]!.repeat(marker.length)) && /^[`~]+$/.test(candidate)) break;
      }
      blocks.push({ type: 'code', start: line.start, end: lines[last]!.end });
      index = last;
      continue;
    }
    if (MATH_FENCE.test(line.text)) {
      close();
      const rest = line.text.trim().slice(2);
      let last = index;
      if (!rest.includes('$$')) {
        for (let next = index + 1; next < lines.length; next++) {
          last = next;
          if (lines[next]!.text.includes('$$')) break;
        }
      }
      blocks.push({ type: 'math', start: line.start, end: lines[last]!.end });
      index = last;
      continue;
    }
    const heading = ATX_HEADING.exec(line.text);
    if (heading) {
      close();
      blocks.push({
        type: 'heading',
        start: line.start,
        end: line.end,
        level: heading[1]!.length,
        title: stripInlineMarkup(heading[2] ?? ''),
      });
      continue;
    }
    if (line.text.trim() === '') {
      close();
      continue;
    }
    const underline = lines[index + 1] && SETEXT_UNDERLINE.exec(lines[index + 1]!.text);
    if (underline && !open && !LIST_ITEM.test(line.text) && !TABLE_ROW.test(line.text)) {
      blocks.push({
        type: 'heading',
        start: line.start,
        end: lines[index + 1]!.end,
        level: underline[1]!.startsWith('=') ? 1 : 2,
        title: stripInlineMarkup(line.text.trim()),
      });
      index++;
      continue;
    }
    if (TABLE_ROW.test(line.text)) extend('table', line);
    else if (LIST_ITEM.test(line.text) || (open?.type === 'list' && /^\s+\S/.test(line.text)))
      extend('list', line);
    else extend('paragraph', line);
  }
  close();
  return blocks;
}

/** Heading text as a reader sees it: no emphasis, code ticks or link targets. */
export function stripInlineMarkup(text: string): string {
  return text
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[*_`]+/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}
