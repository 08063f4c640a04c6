import { describe, expect, it } from 'vitest';
import { documentSegments } from './document-text.js';

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
});
