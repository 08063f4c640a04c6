import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { Citation } from '../api/types.js';
import { AnswerText } from '../ask/AnswerText.js';
import { documentHref } from './DocumentRow.js';

describe('documentHref', () => {
  it.each([
    ['a document', [undefined, undefined], '/documents?open=a+b.md'],
    ['a span', [{ start: 3, end: 9 }, undefined], '/documents?open=a+b.md&start=3&end=9'],
    ['a span on a page', [{ start: 3, end: 9 }, 2], '/documents?open=a+b.md&start=3&end=9&page=2'],
    ['an unpaged span', [{ start: 3, end: 9 }, null], '/documents?open=a+b.md&start=3&end=9'],
  ] as const)('%s', (_name, [span, page], expected) => {
    expect(documentHref('a b.md', span, page)).toBe(expected);
  });

  it('keeps an answer’s [n] a citation link when the citation has a page', () => {
    const citation: Citation = {
      index: 1,
      sourceId: 'manual.pdf',
      chunkId: 'manual.pdf#4',
      title: 'Manual',
      url: null,
      snippet: '',
      startOffset: 10,
      endOffset: 20,
      score: 1,
      pageNumber: 3,
    };
    const html = renderToStaticMarkup(
      createElement(AnswerText, { text: 'Six weeks [1].', citations: [citation] }),
    );
    expect(html).toContain(
      '<a href="/documents?open=manual.pdf&amp;start=10&amp;end=20&amp;page=3" aria-label="Citation 1: Manual">[1]</a>',
    );
  });
});
