/**
 * A PDF's positioned text runs → Markdown-shaped text, so a PDF goes through the same block model,
 * chunker and numbered-entity extraction as Markdown. A PDF has no structure, only glyphs at
 * positions, so structure is read from the layout:
 * - lines: runs on one baseline, in the content stream's order (the author's reading order; a
 *   y-sort would interleave the columns of a two-column page);
 * - headings: lines the PDF's outline (bookmarks) names on that page, at the outline's depth;
 *   else lines in a font clearly larger than the body's, one level per distinct size;
 * - code: lines in a monospaced font, kept as a fenced block with their indentation;
 * - tables: two or more consecutive lines cut into the same number (≥ 2) of cells by wide gaps;
 * - display equations: a line whose last cell is a number in parentheses, `(16.4)`;
 * - captions: a paragraph opening with `Algorithm 3.2.` (Table, Figure, Example, Exercise) gets
 *   the bold label the Markdown path reads as a caption;
 * - running headers and footers (page numbers, a title repeated on every page) are dropped, so a
 *   paragraph, code block or table that runs over a page break stays one block.
 * Pure: runs in, text and page starts out.
 */
import type { PageStart } from '../document.js';

export interface TextRun {
  text: string;
  /** Left edge and baseline, in PDF units (origin bottom-left). */
  x: number;
  y: number;
  width: number;
  /** Font size in PDF units. */
  size: number;
  monospace: boolean;
  /** The producer ended the line after this run. */
  endOfLine?: boolean;
}

export interface PdfPage {
  /** 1-based. */
  number: number;
  runs: TextRun[];
  /** Page height in PDF units, when known: its top and bottom margins are where running heads are. */
  height?: number;
}

/** An outline (bookmark) entry: its title, depth (1 for the top) and the page it points at. */
export interface OutlineEntry {
  title: string;
  level: number;
  page: number;
}

export interface PdfLayout {
  text: string;
  pages: PageStart[];
  /** What a running head names on every page (`BASH(1)` of a man page), when it names one. */
  runningTitle?: string;
}

interface Line {
  page: number;
  y: number;
  /**
   * The largest run's size (how far the line reaches), the smallest (what all of it is set in) and
   * the one most of its characters are set in.
   */
  size: number;
  minSize: number;
  mainSize: number;
  monospace: boolean;
  /** Text of the whole line, and of its cells (parts separated by a wide gap), and where each starts. */
  text: string;
  cells: string[];
  cellX: number[];
  x: number;
  /** The outline's depth for a line the outline names on its page. */
  outlineLevel?: number;
  /** The first line of a hanging-indent item (a term, then its text at a deeper indent). */
  item?: boolean;
}

type Kind = 'heading' | 'code' | 'row' | 'equation' | 'text';

interface LayoutBlock {
  kind: Kind;
  lines: Line[];
}

/** A gap wider than this many font sizes separates cells (table columns, an equation's number). */
const CELL_GAP = 1.2;
/** A vertical step larger than this many font sizes between two lines starts a new paragraph. */
const PARAGRAPH_GAP = 1.7;
/** groff's man macros set section headings 1 pt over a 10 pt body: 1.1 must count. */
const HEADING_RATIO = 1.08;
/** A vertical step this much over the document's usual line step starts a new paragraph. */
const LEADING_GAP = 1.25;
/** A line starting this many font sizes right of the one before, after a sentence end, opens a paragraph. */
const INDENT = 0.8;
const SENTENCE_END = /[.!?:]["')\]]?$/;
const EQUATION_NUMBER = /^\((\d+(?:\.\d+)+|[A-Z]\.\d+)\)$/;
const CAPTION = /^(Algorithm|Table|Figure|Example|Exercise)\s+(\d+(?:\.\d+)+|[A-Z]\.\d+)(?![\d.]\d)[.:]?\s*/;
const PAGE_NUMBER = /^(?:page\s+)?(?:\d{1,5}|[ivxlcdm]{1,7})(?:\s*(?:of|\/)\s*\d{1,5})?$/i;
const BULLET = /^[•●▪◦‣∙·-]\s+/;

export function layoutPdf(pages: readonly PdfPage[], outline: readonly OutlineEntry[] = []): PdfLayout {
  const { kept, runningTitle } = dropRunningHeaders(
    pages.map((page) => ({ lines: linesOf(page), height: page.height })),
  );
  const lines = kept.flat();
  markOutline(lines, outline);
  const bodySize = dominantSize(lines);
  const kinds = lines.map((line) => kindOf(line, bodySize));
  markItems(lines, kinds);
  const blocks = group(lines, kinds, leadingOf(lines, bodySize));
  // Outline headings have the outline's level; only the others are ranked by size, below the
  // deepest outline level, so the two never share a level.
  const headingSizes = [
    ...new Set(
      blocks
        .filter((block) => block.kind === 'heading' && block.lines[0]!.outlineLevel === undefined)
        .map((block) => round(block.lines[0]!.size)),
    ),
  ].sort((left, right) => right - left);
  const below = lines.reduce((deepest, line) => Math.max(deepest, line.outlineLevel ?? 0), 0);
  const layout = render(blocks, (size) => Math.min(6, below + headingSizes.indexOf(round(size)) + 1));
  return runningTitle ? { ...layout, runningTitle } : layout;
}

const comparable = (text: string) => text.toLowerCase().replace(/\s+/g, ' ').trim();

/** Gives each line the outline names on its page (the first such line per entry) its depth. */
function markOutline(lines: Line[], outline: readonly OutlineEntry[]): void {
  if (outline.length === 0) return;
  const byPage = new Map<number, Line[]>();
  for (const line of lines) {
    const onPage = byPage.get(line.page);
    if (onPage) onPage.push(line);
    else byPage.set(line.page, [line]);
  }
  for (const entry of outline) {
    const title = comparable(entry.title);
    const line = byPage.get(entry.page)?.find((candidate) => comparable(candidate.text) === title);
    if (line && line.outlineLevel === undefined) line.outlineLevel = Math.min(6, entry.level);
  }
}

const round = (value: number) => Math.round(value * 10) / 10;

/** Runs on one baseline become a line; a wide gap between two runs starts a new cell. */
function linesOf(page: PdfPage): Line[] {
  const lines: Line[] = [];
  let current: TextRun[] = [];
  const close = () => {
    const runs = current.filter((run) => run.text.trim() !== '').sort((left, right) => left.x - right.x);
    current = [];
    if (runs.length === 0) return;
    const size = Math.max(...runs.map((run) => run.size));
    const cells: string[] = [];
    const cellX = [runs[0]!.x];
    let cell = '';
    let previous: TextRun | undefined;
    for (const run of runs) {
      if (previous) {
        const gap = run.x - (previous.x + previous.width);
        if (gap > size * CELL_GAP) {
          cells.push(cell.trim());
          cellX.push(run.x);
          cell = '';
        } else if (gap > size * 0.15 && !/\s$/.test(cell) && !/^\s/.test(run.text)) cell += ' ';
      }
      cell += run.text;
      previous = run;
    }
    cells.push(cell.trim());
    lines.push({
      page: page.number,
      y: runs[0]!.y,
      size,
      minSize: Math.min(...runs.map((run) => run.size)),
      mainSize: mainSizeOf(runs),
      monospace: runs.every((run) => run.monospace),
      text: cells.join(' '),
      cells,
      cellX,
      x: runs[0]!.x,
    });
  };
  for (const run of page.runs) {
    const last = current.find((candidate) => candidate.text.trim() !== '');
    if (last && Math.abs(run.y - last.y) > Math.min(run.size, last.size) * 0.5) close();
    current.push(run);
    if (run.endOfLine) close();
  }
  close();
  return lines;
}

/** The size most of the runs' characters are set in. */
function mainSizeOf(runs: readonly TextRun[]): number {
  const counts = new Map<number, number>();
  for (const run of runs) counts.set(run.size, (counts.get(run.size) ?? 0) + run.text.length);
  return [...counts].reduce((main, entry) => (entry[1] > main[1] ? entry : main))[0];
}

/** Share of the page height at its top and bottom where running heads and folios sit. */
const MARGIN = 0.08;

/**
 * Drops each page's page-number line at its top or bottom, and top/bottom lines that recur (digits
 * aside) on other pages: a running title between two halves of a paragraph would split it. In the
 * page margins two pages are enough; elsewhere the line must recur on 40% of the pages. A margin
 * line set in columns is a running head or foot even on a single page when a column is the page's
 * number (`GNU coreutils 9.1   September 2022   1`) or it opens and ends with the same name, as
 * man pages' heads do (`BASH(1)   General Commands Manual   BASH(1)`): that name is the title.
 */
function dropRunningHeaders(pages: Array<{ lines: Line[]; height: number | undefined }>): {
  kept: Line[][];
  runningTitle?: string;
} {
  const edges = (lines: Line[]) => {
    if (lines.length === 0) return [];
    const top = lines.reduce((best, line) => (line.y > best.y ? line : best));
    const bottom = lines.reduce((best, line) => (line.y < best.y ? line : best));
    return top === bottom ? [top] : [top, bottom];
  };
  const shape = (line: Line) => line.text.toLowerCase().replace(/\d+/g, '#').replace(/\s+/g, ' ');
  const counts = new Map<string, number>();
  for (const { lines } of pages)
    for (const line of new Set(edges(lines).map(shape))) counts.set(line, (counts.get(line) ?? 0) + 1);
  const inMargin = (line: Line, height: number | undefined) =>
    height !== undefined && (line.y > height * (1 - MARGIN) || line.y < height * MARGIN);
  const recurring = (line: Line, height: number | undefined) => {
    const count = counts.get(shape(line)) ?? 0;
    return count >= 2 && (inMargin(line, height) || (pages.length >= 3 && count >= pages.length * 0.4));
  };
  const framed = (line: Line) => line.cells.length >= 2 && line.cells[0] === line.cells.at(-1);
  // Set apart from the text by more than two lines' space, where the margin is deeper than MARGIN.
  const apart = (line: Line, lines: readonly Line[]) =>
    lines.length > 1 &&
    lines.every((other) => other === line || Math.abs(other.y - line.y) > line.size * 2.5);
  const columned = (line: Line, lines: readonly Line[], height: number | undefined) =>
    (inMargin(line, height) || apart(line, lines)) &&
    (framed(line) ||
      (line.cells.length >= 2 &&
        // The page's own number: a table row at the page's top may well end in some other number.
        [line.cells[0]!, line.cells.at(-1)!].includes(String(line.page))));
  let runningTitle: string | undefined;
  const kept = pages.map(({ lines, height }) => {
    const drop = new Set(
      edges(lines).filter(
        (line) => PAGE_NUMBER.test(line.text) || recurring(line, height) || columned(line, lines, height),
      ),
    );
    runningTitle ??= [...drop].find((line) => framed(line) && inMargin(line, height))?.cells[0];
    return lines.filter((line) => !drop.has(line));
  });
  return runningTitle ? { kept, runningTitle } : { kept };
}

/** The size most of the text is set in (counted in characters). */
function dominantSize(lines: readonly Line[]): number {
  const counts = new Map<number, number>();
  for (const line of lines)
    counts.set(round(line.mainSize), (counts.get(round(line.mainSize)) ?? 0) + line.text.length);
  let best = 0;
  let bestCount = -1;
  for (const [size, count] of counts) {
    if (count > bestCount) [best, bestCount] = [size, count];
  }
  return best;
}

function kindOf(line: Line, bodySize: number): Kind {
  if (line.outlineLevel !== undefined) return 'heading';
  if (line.monospace) return 'code';
  if (line.cells.length >= 2 && EQUATION_NUMBER.test(line.cells.at(-1)!)) return 'equation';
  // Every run large, not just one: a big glyph (groff's ˆ, a display symbol) does not make a heading.
  if (line.minSize >= bodySize * HEADING_RATIO && line.text.length <= 150 && line.cells.length === 1)
    return 'heading';
  if (line.cells.length >= 2) return 'row';
  return 'text';
}

/**
 * A hanging-indent list (man pages' option lists, glossaries) looks like a two-column table: a
 * term, a wide gap, its text. What tells them apart is the text wrapping onto the next line at the
 * second column's indent. Rows of such a run become text, each row opening a paragraph.
 */
function markItems(lines: readonly Line[], kinds: Kind[]): void {
  let start = 0;
  while (start < lines.length) {
    let end = start;
    while (
      kinds[start] === 'row' &&
      end + 1 < lines.length &&
      kinds[end + 1] === 'row' &&
      lines[end + 1]!.cells.length === lines[start]!.cells.length
    )
      end++;
    const run = lines.slice(start, end + 1);
    const wraps = (line: Line, index: number) => {
      const next = lines[index + 1];
      return (
        next !== undefined &&
        next.page === line.page &&
        kinds[index + 1] === 'text' &&
        next.cells.length === 1 &&
        Math.abs(next.x - line.cellX.at(-1)!) < line.size * 0.5
      );
    };
    if (
      kinds[start] === 'row' &&
      run[0]!.cells.length === 2 &&
      run.some((line, at) => wraps(line, start + at))
    )
      for (let index = start; index <= end; index++) {
        kinds[index] = 'text';
        lines[index]!.item = true;
      }
    start = end + 1;
  }
}

/** The usual step between two lines of body text (on one page), or undefined without any. */
function leadingOf(lines: readonly Line[], bodySize: number): number | undefined {
  const counts = new Map<number, number>();
  for (let index = 1; index < lines.length; index++) {
    const [previous, line] = [lines[index - 1]!, lines[index]!];
    const step = round(previous.y - line.y);
    if (
      line.page !== previous.page ||
      round(line.mainSize) !== bodySize ||
      round(previous.mainSize) !== bodySize
    )
      continue;
    if (step > 0 && step < bodySize * 3) counts.set(step, (counts.get(step) ?? 0) + 1);
  }
  let best: number | undefined;
  for (const [step, count] of counts) if (best === undefined || count > counts.get(best)!) best = step;
  return best;
}

/** Consecutive lines of one kind become a block; page breaks join what visibly continues. */
function group(lines: readonly Line[], kinds: readonly Kind[], leading: number | undefined): LayoutBlock[] {
  const blocks: LayoutBlock[] = [];
  lines.forEach((line, index) => {
    const kind = kinds[index]!;
    const open = blocks.at(-1);
    const previous = open?.lines.at(-1);
    if (open && previous && continues(open, previous, line, kind, leading)) open.lines.push(line);
    else blocks.push({ kind, lines: [line] });
  });
  // A lone row is a line with a wide gap in it, not a table.
  return blocks.map((block) =>
    block.kind === 'row' && block.lines.length < 2 ? { ...block, kind: 'text' } : block,
  );
}

function continues(
  open: LayoutBlock,
  previous: Line,
  line: Line,
  kind: Kind,
  leading: number | undefined,
): boolean {
  if (open.kind !== kind) return false;
  const samePage = previous.page === line.page;
  switch (kind) {
    case 'code':
      return true;
    case 'row': {
      // A row with an empty cell has fewer cells; its cells still start at the table's columns.
      const columns = open.lines.flatMap((row) => row.cellX);
      const aligned = (xs: readonly number[], at: readonly number[]) =>
        xs.every((x) => at.some((column) => Math.abs(column - x) < line.size));
      return line.cells.length === previous.cells.length || aligned(line.cellX, columns);
    }
    case 'equation':
      return false;
    case 'heading':
      return (
        samePage &&
        line.outlineLevel === undefined &&
        previous.outlineLevel === undefined &&
        round(line.size) === round(previous.size) &&
        previous.y - line.y <= line.size * 2
      );
    case 'text': {
      if (line.item || CAPTION.test(line.text) || BULLET.test(line.text)) return false;
      const ended = SENTENCE_END.test(previous.text);
      // Books set without space between paragraphs mark a new one by indenting its first line.
      if (ended && line.x - previous.x > line.size * INDENT) return false;
      // Over a page break, or up to the top of the next column, only an unfinished sentence goes on.
      if (!samePage || line.y > previous.y) return !ended;
      // Back left of a wrapped line is the next term of a hanging-indent list; back left of a
      // paragraph's first line is only that line's indent ending.
      if (previous.x - line.x > line.size * INDENT && previous !== open.lines[0]) return false;
      const step = previous.y - line.y;
      // Space between paragraphs is measured against the document's own line step: groff puts
      // 1.4 lines between paragraphs, under the fixed bound for 1.2-line body text.
      if (leading !== undefined && step > leading * LEADING_GAP) return false;
      return step <= Math.max(previous.size, line.size) * PARAGRAPH_GAP;
    }
  }
}

/**
 * Markdown text with, for every page that has text, the offset where its first line starts. The
 * text is collected in parts and joined once: reading the end of a string built by `+=` flattens
 * it, and doing that per line made a 1,000-page book quadratic.
 */
/**
 * A line ending in a hyphenated word: lower case goes on in lower case (`re-` `orders`); a word in
 * capitals goes on in capitals (groff's `EVALUA-` `TION`), but not a capitalised one (`Smith-`
 * `Jones` keeps its hyphen).
 */
function hyphenated(previous: string, next: string): boolean {
  if (/\p{L}-$/u.test(previous) && /^\p{Ll}/u.test(next)) return true;
  return (
    /(?:^|[^\p{L}])[\p{Lu}_]*\p{Lu}[\p{Lu}_]*\p{Lu}-$/u.test(previous) &&
    /^\p{Lu}[\p{Lu}_]*(?:[^\p{L}]|$)/u.test(next)
  );
}

/**
 * A table's columns: where its cells start, close starts taken as one. Rows that all have the same
 * number of cells are their own columns (a right-aligned column does not start at one x).
 */
function columnsOf(rows: readonly Line[]): number[] {
  const count = rows[0]!.cells.length;
  if (rows.every((row) => row.cells.length === count)) return rows[0]!.cellX;
  const columns: number[] = [];
  for (const x of rows.flatMap((row) => row.cellX).sort((left, right) => left - right))
    if (columns.length === 0 || x - columns.at(-1)! >= rows[0]!.size) columns.push(x);
  return columns;
}

/** A row's cells in its table's columns, each in the column it starts nearest; the rest empty. */
function placeCells(row: Line, columns: readonly number[]): string[] {
  const escape = (cell: string) => cell.replace(/\|/g, '\\|');
  if (row.cells.length === columns.length) return row.cells.map(escape);
  const placed = columns.map(() => '');
  row.cells.forEach((cell, index) => {
    const x = row.cellX[index]!;
    const nearest = columns.reduce(
      (best, column, at) => (Math.abs(column - x) < Math.abs(columns[best]! - x) ? at : best),
      0,
    );
    placed[nearest] = placed[nearest] ? `${placed[nearest]} ${escape(cell)}` : escape(cell);
  });
  return placed;
}

function render(blocks: readonly LayoutBlock[], headingLevel: (size: number) => number): PdfLayout {
  const parts: string[] = [];
  let length = 0;
  const write = (part: string) => {
    parts.push(part);
    length += part.length;
  };
  const pages: PageStart[] = [];
  const mark = (line: Line) => {
    if (pages.at(-1)?.page !== line.page) pages.push({ page: line.page, start: length });
  };
  for (const block of blocks) {
    if (length > 0) write('\n\n');
    const [first] = block.lines;
    switch (block.kind) {
      case 'heading':
        mark(first!);
        write(
          `${'#'.repeat(first!.outlineLevel ?? headingLevel(first!.size))} ${block.lines.map((line) => line.text).join(' ')}`,
        );
        break;
      case 'code': {
        const left = block.lines.reduce((least, line) => Math.min(least, line.x), Infinity);
        write('```\n');
        for (const line of block.lines) {
          mark(line);
          // Courier-like faces advance 0.6 em per character.
          const indent = Math.max(0, Math.round((line.x - left) / (line.size * 0.6)));
          write(`${' '.repeat(indent)}${line.text}\n`);
        }
        write('```');
        break;
      }
      case 'row': {
        const columns = columnsOf(block.lines);
        block.lines.forEach((line, index) => {
          if (index > 0) write('\n');
          mark(line);
          write(`| ${placeCells(line, columns).join(' | ')} |`);
          if (index === 0) write(`\n|${' --- |'.repeat(columns.length)}`);
        });
        break;
      }
      case 'equation': {
        mark(first!);
        const number = EQUATION_NUMBER.exec(first!.cells.at(-1)!)![1]!;
        write(`$$ ${first!.cells.slice(0, -1).join(' ')} $$ (${number})`);
        break;
      }
      case 'text': {
        let previous = '';
        block.lines.forEach((line, index) => {
          let content = line.text;
          if (index === 0) {
            const caption = CAPTION.exec(content);
            if (caption)
              content = `**${caption[1]} ${caption[2]}.** ${content.slice(caption[0].length)}`.trimEnd();
            // A paragraph opening with `#` (bash's special parameter) or a fence is text, not Markdown.
            else content = content.replace(BULLET, '- ').replace(/^(#|```|~~~)/, '\\$1');
          } else if (hyphenated(previous, content)) {
            // A word hyphenated at the line's end is joined back together: the previous line, the
            // last part written, loses its hyphen.
            parts[parts.length - 1] = previous.slice(0, -1);
            length--;
          } else write(' ');
          mark(line);
          write(content);
          previous = content;
        });
        break;
      }
    }
  }
  return { text: parts.join(''), pages };
}
