import { describe, expect, it } from 'vitest';
import type { Element } from 'domhandler';
import { cleanHeading, countWords, pagePassages, type ManualMarkup } from './html-passages.js';

const classes = (element: Element) => (element.attribs.class ?? '').split(/\s+/);
/** The DocBook shape of the PostgreSQL manual, reduced to what the cutter looks at. */
const markup: ManualMarkup = {
  isContentRoot: (element) => element.name === 'body',
  isSection: (element) => element.name === 'div' && classes(element).some((name) => /^sect\d$/.test(name)),
  isChrome: (element) => element.name === 'div' && classes(element).includes('navheader'),
  cleanTitle: cleanHeading,
};
const limits = { minWords: 20, maxWords: 60 };
const words = (count: number, word = 'lorem') => Array.from({ length: count }, () => word).join(' ');
const page = (body: string) =>
  `<html><head><title>5.4. Constraints</title></head><body><div class="navheader">Prev Up Next</div>${body}</body></html>`;

describe('pagePassages', () => {
  it('cuts at sections, drops chrome, names passages by page and anchor', () => {
    const passages = pagePassages(
      page(
        `<div class="sect1" id="DDL-CONSTRAINTS"><h2>5.4. Constraints</h2><p>${words(30)}</p>` +
          `<div class="sect2" id="DDL-CONSTRAINTS-FK"><h3>5.4.5. Foreign Keys</h3><p>${words(30, 'ref')}</p>` +
          `<pre>CREATE TABLE t (\n  a int\n);</pre></div></div>`,
      ),
      'ddl-constraints',
      markup,
      limits,
    );
    expect(passages.map(({ _id, title }) => [_id, title])).toEqual([
      ['ddl-constraints', 'Constraints'],
      ['ddl-constraints#ddl-constraints-fk', 'Constraints — Foreign Keys'],
    ]);
    expect(passages[0]!.text).not.toContain('Prev');
    expect(passages[1]!.text).toContain('CREATE TABLE t (\n  a int\n);');
  });

  it('merges a small section into the next and titles both headings', () => {
    const passages = pagePassages(
      page(
        `<div class="sect1" id="A"><h2>A</h2><p>${words(30)}</p>` +
          `<div class="sect2" id="B"><h3>Small</h3><p>${words(8)}</p></div>` +
          `<div class="sect2" id="C"><h3>Next</h3><p>${words(25)}</p></div></div>`,
      ),
      'p',
      markup,
      limits,
    );
    expect(passages.map(({ _id, title }) => [_id, title])).toEqual([
      ['p', 'Constraints'],
      ['p#b', 'Constraints — Small; Next'],
    ]);
  });

  it('splits a long section between blocks and keeps a term with its definition', () => {
    // 71 words: the block boundary nearest half of them falls between the term and its definition.
    const passages = pagePassages(
      page(
        `<div class="sect1" id="id-1.2.3"><h2>Options</h2><p>${words(29)}</p>` +
          `<dl><dt>option_one</dt><dd><p>${words(40, 'ipsum')}</p></dd></dl></div>`,
      ),
      'app',
      markup,
      limits,
    );
    expect(passages.map((passage) => passage._id)).toEqual(['app', 'app/2']);
    expect(passages[1]!.text.startsWith('option_one\n\nipsum')).toBe(true);
    for (const passage of passages) expect(countWords(passage.text)).toBeLessThanOrEqual(limits.maxWords);
  });

  it('uses the heading slug where the anchor is generated', () => {
    const passages = pagePassages(
      page(
        `<div class="sect1" id="X"><h2>X</h2><p>${words(30)}</p>` +
          `<div class="sect2" id="id-1.5.4.6.6"><h3>Not-Null Constraints</h3><p>${words(30)}</p></div></div>`,
      ),
      'x',
      markup,
      limits,
    );
    expect(passages.map((passage) => passage._id)).toEqual(['x', 'x#not-null-constraints']);
  });
});

describe('cleanHeading', () => {
  it.each([
    ['5.4.1. Check Constraints', 'Check Constraints'],
    ['Chapter 5. Data Definition', 'Data Definition'],
    ['9. Classes', 'Classes'],
    ['json — JSON encoder and decoder¶', 'json — JSON encoder and decoder'],
    ['CREATE TABLE', 'CREATE TABLE'],
  ])('%s', (input, expected) => {
    expect(cleanHeading(input)).toBe(expected);
  });
});
