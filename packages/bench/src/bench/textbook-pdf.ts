import type { PDFFont, PDFPage } from 'pdf-lib';
import { seededRandom } from '@agentic-rag/core/testing';

/** A numbered entity the generated book defines, and the page its caption or heading is on. */
export interface PlacedEntity {
  /** The graph id: `Algorithm:3.2`, `Formula:3.3`, `Table:3.1`, `Figure:3.4`, `Section:3.1`, `Chapter:3`. */
  id: string;
  page: number;
  /** The page its last line is on: later than `page` for one that runs over a page break. */
  lastPage: number;
}

export interface TextbookPdf {
  bytes: Uint8Array;
  pages: number;
  /** The same book as Markdown: what a plain-text ingest of the same content reads. */
  markdown: string;
  entities: PlacedEntity[];
}

type Block =
  | { kind: 'heading'; text: string; size: number; id: string }
  | { kind: 'paragraph'; text: string }
  | { kind: 'caption'; text: string; id: string; body: 'code' | 'table' | 'none'; lines: string[][] }
  | { kind: 'equation'; expression: string; number: string; id: string };

const WORDS = (
  'stock demand order policy reorder level holding cost backorder penalty horizon belief state ' +
  'warehouse supplier lead time forecast variance expected value utility decision action reward ' +
  'transition observation update estimate sample inventory review period service safety buffer'
).split(' ');

const PAGE = { width: 612, height: 792, left: 72, top: 720, bottom: 80 } as const;
const BODY = 10;
const LEADING = 14;

/**
 * A textbook-shaped PDF of `pages` pages (pdf-lib, standard fonts): chapters and sections as
 * larger type, algorithms as captioned Courier listings, tables as aligned columns, numbered
 * display equations and figure captions, prose that refers to them, a running head and a folio on
 * every page. Blocks are never kept together, so listings, tables and paragraphs run over page
 * breaks wherever the flow puts them. Deterministic for a seed.
 */
export async function textbookPdf(pages: number, seed = 7): Promise<TextbookPdf> {
  // Loaded here, not at the top: the package's index re-exports bench/, and pdf-lib is a
  // development dependency that a production install does not have.
  const { PDFDocument, StandardFonts } = await import('pdf-lib');
  const next = seededRandom(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const sentence = (words: number) => {
    const text = Array.from({ length: words }, () => pick(WORDS)).join(' ');
    return `${text[0]!.toUpperCase()}${text.slice(1)}.`;
  };
  const document = await PDFDocument.create();
  document.setTitle('Decisions Under Uncertainty');
  const fonts = {
    body: await document.embedFont(StandardFonts.Helvetica),
    bold: await document.embedFont(StandardFonts.HelveticaBold),
    mono: await document.embedFont(StandardFonts.Courier),
  };

  const entities: PlacedEntity[] = [];
  /** Each block's Markdown with the page its last line went on (pages past the end are dropped). */
  const markdown: Array<{ text: string; page: number }> = [];
  const cursor: { page: PDFPage | null; number: number; y: number } = { page: null, number: 0, y: 0 };
  const write = (text: string) => markdown.push({ text, page: cursor.number });
  const newPage = () => {
    const page = document.addPage([PAGE.width, PAGE.height]);
    cursor.page = page;
    cursor.number++;
    page.drawText('Decisions Under Uncertainty', { x: 230, y: 760, size: 8, font: fonts.body });
    page.drawText(String(cursor.number), { x: 300, y: 40, size: 8, font: fonts.body });
    cursor.y = PAGE.top;
    return page;
  };
  /** Places one line, turning the page first when it is full; returns the page it is on. */
  const line = (text: string, font: PDFFont, size: number, x: number = PAGE.left, gap = LEADING) => {
    let page = cursor.page;
    if (!page || cursor.y - gap < PAGE.bottom) page = newPage();
    else cursor.y -= gap;
    page.drawText(text, { x, y: cursor.y, size, font });
    return cursor.number;
  };
  /** Draws beside the line just placed (a table cell, an equation's number). */
  const beside = (text: string, x: number) =>
    cursor.page!.drawText(text, { x, y: cursor.y, size: BODY, font: fonts.body });
  const wrap = (text: string): string[] => {
    const lines: string[] = [];
    let current = '';
    for (const word of text.split(' ')) {
      const candidate = current ? `${current} ${word}` : word;
      if (fonts.body.widthOfTextAtSize(candidate, BODY) > PAGE.width - 2 * PAGE.left) {
        lines.push(current);
        current = word;
      } else current = candidate;
    }
    if (current) lines.push(current);
    return lines;
  };

  const place = (block: Block) => {
    switch (block.kind) {
      case 'heading': {
        const at = line(block.text, fonts.bold, block.size, PAGE.left, block.size * 2.2);
        cursor.y -= 6;
        entities.push({ id: block.id, page: at, lastPage: at });
        write(`${block.size > 15 ? '#' : '##'} ${block.text}`);
        return;
      }
      case 'paragraph':
        wrap(block.text).forEach((text, index) =>
          line(text, fonts.body, BODY, PAGE.left, index === 0 ? LEADING * 1.9 : LEADING),
        );
        write(block.text);
        return;
      case 'equation': {
        const at = line(block.expression, fonts.body, BODY, 180, LEADING * 1.9);
        beside(`(${block.number})`, 500);
        entities.push({ id: block.id, page: at, lastPage: at });
        write(`$$ ${block.expression} $$ (${block.number})`);
        return;
      }
      case 'caption': {
        const at = line(block.text, fonts.body, BODY, PAGE.left, LEADING * 1.9);
        const [label, number, title] = /^(\w+) (\d+\.\d+)\. (.*)$/.exec(block.text)!.slice(1);
        write(`**${label} ${number}.** ${title}`);
        let last = at;
        if (block.body === 'code') {
          block.lines.forEach(([indent, text], index) => {
            last = line(
              text!,
              fonts.mono,
              9,
              PAGE.left + Number(indent) * 5.4,
              index === 0 ? LEADING * 1.6 : 12,
            );
          });
          write(
            [
              '```',
              ...block.lines.map(([indent, text]) => `${' '.repeat(Number(indent))}${text}`),
              '```',
            ].join('\n'),
          );
        } else if (block.body === 'table') {
          block.lines.forEach((cells, index) => {
            last = line(cells[0]!, fonts.body, BODY, PAGE.left, index === 0 ? LEADING * 1.6 : LEADING);
            cells.slice(1).forEach((cell, column) => beside(cell, 220 + column * 130));
          });
          write(
            block.lines
              .map(
                (cells, index) =>
                  `| ${cells.join(' | ')} |${index === 0 ? `\n|${' --- |'.repeat(cells.length)}` : ''}`,
              )
              .join('\n'),
          );
        }
        entities.push({ id: block.id, page: at, lastPage: last });
        return;
      }
    }
  };

  for (let chapter = 1; cursor.number < pages; chapter++) {
    place({
      kind: 'heading',
      text: `Chapter ${chapter}: ${pick(WORDS)} and ${pick(WORDS)}`,
      size: 18,
      id: `Chapter:${chapter}`,
    });
    let counter = 0;
    for (let section = 1; section <= 4 && cursor.number <= pages; section++) {
      place({
        kind: 'heading',
        text: `${chapter}.${section} ${pick(WORDS)} ${pick(WORDS)}`,
        size: 13,
        id: `Section:${chapter}.${section}`,
      });
      for (let item = 0; item < 4 && cursor.number <= pages; item++) {
        place({
          kind: 'paragraph',
          text: Array.from({ length: 3 + Math.floor(next() * 4) }, () =>
            sentence(8 + Math.floor(next() * 10)),
          ).join(' '),
        });
        const number = `${chapter}.${++counter}`;
        const shape = item % 4;
        if (shape === 0) {
          const steps = 6 + Math.floor(next() * 10);
          const code = [['0', `function ${pick(WORDS)}_${counter}(s, S, stock)`]];
          for (let step = 0; step < steps; step++)
            code.push([
              String(2 + 2 * (step % 3)),
              `${pick(WORDS)} = ${pick(WORDS)}(${pick(WORDS)}, ${step})`,
            ]);
          code.push(['0', 'end']);
          place({
            kind: 'caption',
            text: `Algorithm ${number}. The ${pick(WORDS)} ${pick(WORDS)} procedure.`,
            id: `Algorithm:${number}`,
            body: 'code',
            lines: code,
          });
        } else if (shape === 1) {
          const rows = [['Item', 'Mean', 'Deviation']];
          for (let row = 0; row < 4 + Math.floor(next() * 8); row++)
            rows.push([`${pick(WORDS)}-${row}`, (next() * 100).toFixed(1), (next() * 10).toFixed(2)]);
          place({
            kind: 'caption',
            text: `Table ${number}. Weekly ${pick(WORDS)} statistics.`,
            id: `Table:${number}`,
            body: 'table',
            lines: rows,
          });
        } else if (shape === 2) {
          place({
            kind: 'paragraph',
            text: `The ${pick(WORDS)} follows from Algorithm ${chapter}.1 as ${sentence(6)}`,
          });
          place({
            kind: 'equation',
            expression: `${pick(WORDS)}(t) = ${pick(WORDS)} * sqrt(${pick(WORDS)} + t)`,
            number,
            id: `Formula:${number}`,
          });
        } else {
          place({
            kind: 'caption',
            text: `Figure ${number}. The ${pick(WORDS)} network of ${pick(WORDS)} sites.`,
            id: `Figure:${number}`,
            body: 'none',
            lines: [],
          });
        }
      }
    }
  }
  // The flow stops at a block boundary past the last full page: drop what landed beyond it.
  while (document.getPageCount() > pages) document.removePage(document.getPageCount() - 1);
  return {
    bytes: await document.save(),
    pages: document.getPageCount(),
    markdown: `${markdown
      .filter((block) => block.page <= pages)
      .map((block) => block.text)
      .join('\n\n')}\n`,
    entities: entities.filter((entity) => entity.lastPage <= pages),
  };
}
