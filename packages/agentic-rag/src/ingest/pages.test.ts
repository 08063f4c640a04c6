import { describe, expect, it } from 'vitest';
import { chunkText } from './chunker.js';
import { parseMarkdownBlocks } from './loaders/index.js';
import { chunkPages, pageAt } from './pages.js';
import { cl100kTokenizer } from './tokenizer.js';

const PAGES = [
  { page: 4, start: 0 },
  { page: 5, start: 100 },
  { page: 7, start: 250 },
];

describe('pages', () => {
  it.each([
    [0, 4],
    [99, 4],
    [100, 5],
    [249, 5],
    [250, 7],
    [10_000, 7],
  ])('offset %i is on page %i', (offset, page) => {
    expect(pageAt(PAGES, offset)).toBe(page);
  });

  it.each([
    { start: 10, end: 90, expected: { page_number: 4 } },
    { start: 10, end: 101, expected: { page_number: 4, page_end: 5 } },
    // The end is exclusive: a chunk ending where page 5 starts is all on page 4.
    { start: 10, end: 100, expected: { page_number: 4 } },
    { start: 120, end: 300, expected: { page_number: 5, page_end: 7 } },
  ])('chunk $start..$end has $expected', ({ start, end, expected }) => {
    expect(chunkPages(PAGES, start, end)).toEqual(expected);
  });

  it('gives a document without pages no page metadata', () => {
    expect(chunkPages(undefined, 0, 10)).toEqual({});
    expect(pageAt([], 3)).toBeUndefined();
  });
});

describe('chunkText with page starts', () => {
  const text = [
    'First page prose that talks about reorder points and safety stock at some length.',
    'More of the first page, which keeps going about holding costs for a while longer.',
    'Second page prose about seasonal demand that should start a chunk of its own.',
  ].join('\n\n');
  const secondPage = text.indexOf('Second page');
  const chunk = (pageStarts?: number[]) =>
    chunkText(text, parseMarkdownBlocks(text), {
      tokenizer: cl100kTokenizer(),
      maxTokens: 200,
      overlapTokens: 20,
      minTokens: 10,
      ...(pageStarts ? { pageStarts } : {}),
    }).map((chunk) => chunk.start);

  it('starts a chunk where a page starts, without overlap across the break', () => {
    expect(chunk()).toEqual([0]);
    expect(chunk([0, secondPage])).toEqual([0, secondPage]);
  });

  it('does not cut a block that a page starts inside of', () => {
    expect(chunk([0, secondPage + 5])).toEqual([0]);
  });
});
