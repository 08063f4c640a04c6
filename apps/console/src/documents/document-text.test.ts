import { describe, expect, it } from 'vitest';
import { documentSegments, joinSegments } from './document-text.js';

const chunk = (text: string, startOffset: number) => ({
  index: 0,
  text,
  startOffset,
  endOffset: startOffset + Array.from(text).length,
  sectionPath: '',
});

describe('documentSegments', () => {
  it.each([
    ['no span', [chunk('Hello world.', 0)], null, [['Hello world.', false]]],
    [
      'a span inside a chunk',
      [chunk('Hello world.', 0)],
      { start: 6, end: 11 },
      [
        ['Hello ', false],
        ['world', true],
        ['.', false],
      ],
    ],
    [
      'overlapping chunks, each character once',
      [chunk('one two three', 0), chunk('three four', 8)],
      { start: 4, end: 18 },
      [
        ['one ', false],
        ['two three four', true],
      ],
    ],
    [
      'code points, not UTF-16 units',
      [chunk('𝒮 is a set', 0)],
      { start: 2, end: 4 },
      [
        ['𝒮 ', false],
        ['is', true],
        [' a set', false],
      ],
    ],
  ])('%s', (_name, chunks, span, expected) => {
    expect(documentSegments(chunks, span).map((segment) => [segment.text, segment.marked])).toEqual(expected);
  });

  it('marks a gap between chunks that are not adjacent', () => {
    const segments = documentSegments([chunk('# Title', 0), chunk('Body.', 9)], null);
    expect(segments.map((segment) => [segment.text, segment.gap])).toEqual([
      ['# Title', false],
      ['\n\n', true],
      ['Body.', false],
    ]);
  });

  it('fills a one-character gap with a newline, so table rows cut apart stay rows', () => {
    const segments = documentSegments([chunk('| a |\n| - |', 0), chunk('| 1 |', 12)], null);
    expect(segments.map((segment) => segment.text).join('')).toBe('| a |\n| - |\n| 1 |');
  });
});

describe('joinSegments', () => {
  it('gives the text with the marked part as UTF-16 indices, a gap inside the span included', () => {
    const segments = documentSegments([chunk('𝒮 title', 0), chunk('Body text.', 9)], { start: 2, end: 13 });
    const { text, span } = joinSegments(segments);
    expect(text).toBe('𝒮 title\n\nBody text.');
    expect(span).toEqual({ start: 3, end: 14 });
    expect(text.slice(span!.start, span!.end)).toBe('title\n\nBody');
  });

  it('gives no span when nothing is marked', () => {
    expect(joinSegments(documentSegments([chunk('Hello.', 0)], null)).span).toBeNull();
  });
});
