import { describe, expect, it } from 'vitest';
import { layoutPdf, type PdfPage, type TextRun } from './pdf-layout.js';

/** A run as pdf.js reports one: 0.5 em per character is close enough for Helvetica-like faces. */
const run = (text: string, y: number, options: Partial<TextRun> = {}): TextRun => ({
  text,
  x: 72,
  y,
  size: 10,
  monospace: false,
  width: text.length * (options.size ?? 10) * (options.monospace ? 0.6 : 0.5),
  ...options,
});
const page = (number: number, runs: TextRun[]): PdfPage => ({ number, runs, height: 792 });

describe('layoutPdf', () => {
  it.each([
    {
      name: 'headings by size, one level per size',
      runs: [
        run('Chapter 3: Inventory', 700, { size: 20 }),
        run('3.1 Policies', 670, { size: 14 }),
        run('Body text that is longer than the headings above it.', 650),
      ],
      text: '# Chapter 3: Inventory\n\n## 3.1 Policies\n\nBody text that is longer than the headings above it.',
    },
    {
      name: 'lines of a paragraph joined, a word hyphenated at a line end rejoined',
      runs: [run('The policy re-', 700), run('orders stock.', 688), run('A new paragraph.', 660)],
      text: 'The policy reorders stock.\n\nA new paragraph.',
    },
    {
      name: 'an indented first line after a sentence end opens a paragraph, without vertical space',
      runs: [
        run('The first paragraph ends here.', 700, { x: 84 }),
        run('And it went on to here.', 688),
        run('A second one begins indented', 676, { x: 84 }),
        run('and wraps to the margin.', 664),
      ],
      text: 'The first paragraph ends here. And it went on to here.\n\nA second one begins indented and wraps to the margin.',
    },
    {
      name: 'monospaced lines as a fenced block with their indentation',
      runs: [run('for i in 1:n', 700, { monospace: true }), run('x += i', 688, { monospace: true, x: 84 })],
      text: '```\nfor i in 1:n\n  x += i\n```',
    },
    {
      name: 'rows of cells as a table, a caption in bold',
      runs: [
        run('Table 5.1: Demand', 720),
        run('Item', 700),
        run('Mean', 700, { x: 200 }),
        run('Widget', 686),
        run('12.5', 686, { x: 200 }),
      ],
      text: '**Table 5.1.** Demand\n\n| Item | Mean |\n| --- | --- |\n| Widget | 12.5 |',
    },
    {
      name: 'a line ending in a parenthesised number as a display equation',
      runs: [run('x = y + z', 700, { x: 200 }), run('(16.4)', 700, { x: 500 })],
      text: '$$ x = y + z $$ (16.4)',
    },
    {
      name: 'a lone line with a wide gap stays prose',
      runs: [run('Name', 700), run('Value', 700, { x: 300 })],
      text: 'Name Value',
    },
    {
      name: 'a heading 1.1 times the body (man pages), but not a body line with one big glyph',
      runs: [
        run('OPTIONS', 700, { size: 11 }),
        run('Repeat with', 686),
        run('ˆ', 686, { x: 130, size: 14 }),
        run('and the rest of the body text runs on at length.', 686, { x: 140 }),
      ],
      text: '# OPTIONS\n\nRepeat with ˆ and the rest of the body text runs on at length.',
    },
    {
      name: "paragraphs apart by 1.4 lines where the document's lines are 1.2 apart",
      runs: [
        run('One line.', 700),
        run('Two lines.', 688),
        run('Next paragraph.', 671.2),
        run('Last.', 659.2),
      ],
      text: 'One line. Two lines.\n\nNext paragraph. Last.',
    },
    {
      name: 'a hanging-indent list as paragraphs, not a table, and the tag on its own line',
      runs: [
        run('-a', 700),
        run('Show every entry, wrapping onto', 700, { x: 108 }),
        run('the next line.', 688, { x: 108 }),
        run('-q', 676),
        run('Print nothing.', 676, { x: 108 }),
        run('--a-long-option', 664),
        run('Its text under it,', 652, { x: 108 }),
        run('wrapped.', 640, { x: 108 }),
        run('--next', 628),
      ],
      text:
        '-a Show every entry, wrapping onto the next line.\n\n-q Print nothing.\n\n' +
        '--a-long-option Its text under it, wrapped.\n\n--next',
    },
    {
      name: 'a table row with an empty cell in its column',
      runs: [
        run('r0', 700),
        run('0.0', 700, { x: 200 }),
        run('yes', 700, { x: 300 }),
        run('r1', 688),
        run('1.0', 688, { x: 200 }),
        run('r2', 676),
        run('2.0', 676, { x: 200 }),
        run('no', 676, { x: 300 }),
      ],
      text: '| r0 | 0.0 | yes |\n| --- | --- | --- |\n| r1 | 1.0 |  |\n| r2 | 2.0 | no |',
    },
    {
      name: 'a word in capitals hyphenated at a line end rejoined',
      runs: [run('see ARITHMETIC EVALUA-', 700), run('TION below.', 688)],
      text: 'see ARITHMETIC EVALUATION below.',
    },
    {
      name: 'a paragraph opening with # escaped, so it is not read as a Markdown heading',
      runs: [run('# Expands to the number of positional parameters.', 700)],
      text: '\\# Expands to the number of positional parameters.',
    },
  ])('$name', ({ runs, text }) => {
    expect(layoutPdf([page(1, runs)]).text).toBe(text);
  });

  it('keeps a code block that runs over a page break whole, dropping folios and running heads', () => {
    const mono = { monospace: true };
    const layout = layoutPdf([
      page(1, [run('Algorithm 3.2. Policy', 100), run('function f()', 80, mono), run('88', 30)]),
      page(2, [run('Decision Making', 770), run('return 1', 740, mono), run('After.', 700), run('89', 30)]),
      page(3, [run('Decision Making', 770), run('Last page.', 740), run('90', 30)]),
    ]);
    expect(layout.text).toBe(
      '**Algorithm 3.2.** Policy\n\n```\nfunction f()\nreturn 1\n```\n\nAfter.\n\nLast page.',
    );
    expect(layout.pages).toEqual([
      { page: 1, start: 0 },
      { page: 2, start: layout.text.indexOf('return 1') },
      { page: 3, start: layout.text.indexOf('Last page.') },
    ]);
  });

  it("drops a single page's columned running head and foot, naming the document after the head", () => {
    const layout = layoutPdf([
      {
        number: 1,
        height: 842,
        runs: [
          run('LS(1)', 794),
          run('User Commands', 794, { x: 272 }),
          run('LS(1)', 794, { x: 474 }),
          run('List directory contents.', 746),
          run('GNU coreutils 9.1', 74),
          run('September 2022', 74, { x: 273 }),
          run('1', 74, { x: 535 }),
        ],
      },
    ]);
    expect(layout).toEqual({
      text: 'List directory contents.',
      pages: [{ page: 1, start: 0 }],
      runningTitle: 'LS(1)',
    });
  });

  it('continues a sentence over a page break, and a table over one', () => {
    const layout = layoutPdf([
      page(1, [
        run('The sentence runs on', 100),
        run('A', 80),
        run('1', 80, { x: 200 }),
        run('B', 66),
        run('2', 66, { x: 200 }),
      ]),
      page(2, [run('C', 740), run('3', 740, { x: 200 })]),
    ]);
    // The table's last row is on page 2: a table, not a paragraph, follows the sentence.
    expect(layout.text).toBe('The sentence runs on\n\n| A | 1 |\n| --- | --- |\n| B | 2 |\n| C | 3 |');
    const prose = layoutPdf([
      page(1, [run('The sentence runs on', 100)]),
      page(2, [run('to the next page. Then stops.', 740), run('New one.', 700)]),
    ]);
    expect(prose.text).toBe('The sentence runs on to the next page. Then stops.\n\nNew one.');
    expect(prose.pages).toEqual([
      { page: 1, start: 0 },
      { page: 2, start: prose.text.indexOf('to the next') },
    ]);
  });

  it('takes headings from the outline at its depth, set in body type or not', () => {
    const layout = layoutPdf(
      [
        page(1, [
          run('Reorder Points', 700),
          run('A reorder point is the stock level that triggers an order for more stock.', 680),
          run('Larger Type', 650, { size: 14 }),
          run('More prose that is set in the body size of the document, as most text is.', 630),
        ]),
      ],
      [{ title: 'Reorder  points', level: 2, page: 1 }],
    );
    // The size-ranked heading goes below the outline's deepest level.
    expect(layout.text).toBe(
      '## Reorder Points\n\nA reorder point is the stock level that triggers an order for more stock.\n\n' +
        '### Larger Type\n\nMore prose that is set in the body size of the document, as most text is.',
    );
    // An entry pointing at another page names nothing here.
    const elsewhere = layoutPdf(
      [page(1, [run('Reorder Points', 700)])],
      [{ title: 'Reorder Points', level: 1, page: 2 }],
    );
    expect(elsewhere.text).toBe('Reorder Points');
  });

  it.each([
    {
      name: 'joins a sentence that runs up into the next column',
      runs: [run('The left column ends mid', 100), run('sentence in the right column.', 700, { x: 320 })],
      text: 'The left column ends mid sentence in the right column.',
    },
    {
      name: 'starts a paragraph at the next column after a finished sentence',
      runs: [run('The left column ends here.', 100), run('The right column starts anew.', 700, { x: 320 })],
      text: 'The left column ends here.\n\nThe right column starts anew.',
    },
  ])('two columns: $name', ({ runs, text }) => {
    expect(layoutPdf([page(1, runs)]).text).toBe(text);
  });

  it('gives a page without text no start, and an empty document no text', () => {
    const layout = layoutPdf([page(1, [run('One.', 700)]), page(2, []), page(3, [run('Three.', 700)])]);
    expect(layout.pages.map((start) => start.page)).toEqual([1, 3]);
    expect(layoutPdf([page(1, [run('   ', 700)])])).toEqual({ text: '', pages: [] });
  });
});
