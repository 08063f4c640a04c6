import { contentStems } from '../lexicon/index.js';

export { contentStems };

/**
 * A piece of a chunk an extractive answer can quote: a sentence, list item, table row, heading or
 * code block.
 */
export interface TextUnit {
  kind: 'sentence' | 'item' | 'row' | 'heading' | 'code';
  text: string;
  /** Order within the chunk. */
  position: number;
  /**
   * The paragraph, list item, heading or code block the unit belongs to: the sentences of one
   * list item share it, so an answer can quote an item whole.
   */
  block: number;
}

// A sentence ends at . ! or ? followed by space and something that starts a sentence; "e.g. the"
// and "3.2 shows" stay whole because a lower-case word or a digit-dot does not start one.
const SENTENCE_END = /(?<=[.!?])\s+(?=[A-Z`*"([])/;
const ABBREVIATION = /\b(?:e\.g|i\.e|etc|vs|Fig|Eq|Sec|No|cf)\.$/;

/** Sentences of a paragraph, rejoining splits after common abbreviations. */
export function splitSentences(paragraph: string): string[] {
  const parts = paragraph.split(SENTENCE_END);
  const sentences: string[] = [];
  for (const part of parts) {
    const last = sentences[sentences.length - 1];
    if (last !== undefined && ABBREVIATION.test(last)) sentences[sentences.length - 1] = `${last} ${part}`;
    else sentences.push(part);
  }
  return sentences.map((sentence) => sentence.trim()).filter(Boolean);
}

/**
 * Splits Markdown-ish chunk text into quotable units. Fenced code stays whole; display math is
 * skipped (a sentence cannot quote it faithfully); a table's data rows are units of their own,
 * each cell labelled by its header; headings lose their #s; list items are units of their own;
 * paragraphs are cut into sentences.
 */
export function splitUnits(text: string): TextUnit[] {
  const units: TextUnit[] = [];
  let block = 0;
  const push = (kind: TextUnit['kind'], content: string) => {
    const trimmed = content.replace(/\s+/g, ' ').trim();
    if (trimmed)
      units.push({ kind, text: kind === 'code' ? content.trim() : trimmed, position: units.length, block });
  };
  const lines = text.split('\n');
  let paragraph: string[] = [];
  let header: string[] | undefined;
  // A list item's text is a paragraph of its own, which may wrap onto the lines below it.
  let paragraphKind: 'sentence' | 'item' = 'sentence';
  const flush = () => {
    for (const sentence of splitSentences(paragraph.join(' ').replace(/\s+/g, ' ')))
      push(paragraphKind, sentence);
    if (paragraph.length > 0) block++;
    paragraph = [];
    paragraphKind = 'sentence';
  };
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    const trimmed = line.trim();
    if (trimmed.startsWith('```')) {
      flush();
      const body: string[] = [line];
      while (++index < lines.length) {
        body.push(lines[index]!);
        if (lines[index]!.trim().startsWith('```')) break;
      }
      push('code', body.join('\n'));
      block++;
    } else if (trimmed.startsWith('$$')) {
      flush();
      // `$$ x $$ (3.2)` closes on its own line; otherwise skip to the line that closes it.
      if (trimmed.indexOf('$$', 2) === -1) {
        while (++index < lines.length && !lines[index]!.includes('$$'));
      }
    } else if (trimmed === '') {
      flush();
    } else if (/^#{1,6}\s/.test(trimmed)) {
      flush();
      push('heading', trimmed.replace(/^#+\s*/, ''));
      block++;
    } else if (/^([-*+]|\d+[.)])\s+/.test(trimmed)) {
      flush();
      // An item of several sentences is quoted sentence by sentence, as a paragraph is.
      paragraphKind = 'item';
      paragraph.push(trimmed.replace(/^([-*+]|\d+[.)])\s+/, ''));
    } else if (trimmed.startsWith('|')) {
      flush();
      // A row is a fact of its own, quoted as its cells, each labelled by its column's header
      // ("Code: `LABEL_VOIDED`; HTTP: 409"); the separator row says nothing, nor does an empty one.
      const cells = tableCells(trimmed);
      const separator = /^\|?[\s:|-]+\|?$/.test(trimmed) && trimmed.includes('-');
      const startsTable = !(lines[index - 1] ?? '').trim().startsWith('|');
      if (startsTable) {
        const next = (lines[index + 1] ?? '').trim();
        header = /^\|?[\s:|-]+\|?$/.test(next) && next.includes('-') ? cells : undefined;
      }
      if (!separator && !(startsTable && header) && cells.some(Boolean)) {
        push('row', labelCells(cells, header));
        block++;
      }
    } else {
      paragraph.push(trimmed);
    }
  }
  flush();
  return units;
}

/** "| `A` | 409 | Meaning |" → ["`A`", "409", "Meaning"]: the cells as written. */
function tableCells(line: string): string[] {
  return line
    .replace(/^\|/, '')
    .replace(/\|\s*$/, '')
    .split('|')
    .map((cell) => cell.replace(/\s+/g, ' ').trim());
}

/** Cells under their headers ("Code: `A`; HTTP: 409"), or as written without a header row. */
function labelCells(cells: readonly string[], header: readonly string[] | undefined): string {
  if (!header) return cells.filter(Boolean).join(' | ');
  return cells
    .map((cell, column) => (cell && header[column] ? `${header[column]}: ${cell}` : cell))
    .filter(Boolean)
    .join('; ');
}

/** Jaccard similarity of two stem sets. */
export function overlap(left: ReadonlySet<string>, right: ReadonlySet<string>): number {
  if (left.size === 0 && right.size === 0) return 1;
  let shared = 0;
  for (const item of left) if (right.has(item)) shared++;
  return shared / (left.size + right.size - shared);
}
