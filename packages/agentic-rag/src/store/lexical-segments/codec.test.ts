import { describe, expect, it } from 'vitest';
import { DecodedSegment, encodeSegment, SegmentFormatError, type Posting } from './codec.js';

describe('lexical segment codec', () => {
  const chunks = [
    { id: 2 ** 40 + 7, length: 3 },
    { id: 5, length: 12 },
    { id: 130, length: 0 },
  ];
  const terms = new Map<string, Posting[]>([
    ['zeta', [{ chunkId: 5, tf: 1, tfHeading: 0, tfTitle: 0 }]],
    [
      'alpha',
      [
        { chunkId: 2 ** 40 + 7, tf: 300, tfHeading: 2, tfTitle: 1 },
        { chunkId: 5, tf: 0, tfHeading: 0, tfTitle: 4 },
      ],
    ],
    ['émigré', [{ chunkId: 130, tf: 128, tfHeading: 129, tfTitle: 16_384 }]],
  ]);

  it('round-trips ids beyond 2^31, multi-byte numbers and non-ASCII lexemes', () => {
    const segment = new DecodedSegment(encodeSegment({ chunks, terms }));
    expect([...segment.chunkIds]).toEqual([5, 130, 2 ** 40 + 7]);
    expect([...segment.lengths]).toEqual([12, 0, 3]);
    expect([...segment.lexemes()]).toEqual(['alpha', 'zeta', 'émigré']);
    const alpha = segment.postings('alpha')!;
    expect([...alpha.positions].map((at) => segment.chunkIds[at])).toEqual([5, 2 ** 40 + 7]);
    expect([...alpha.tf]).toEqual([0, 300]);
    expect([...alpha.tfHeading]).toEqual([0, 2]);
    expect([...alpha.tfTitle]).toEqual([4, 1]);
    const accented = segment.postings('émigré')!;
    expect([accented.tf[0], accented.tfHeading[0], accented.tfTitle[0]]).toEqual([128, 129, 16_384]);
    expect(segment.postings('missing')).toBeUndefined();
    // Decoded once, then kept.
    expect(segment.postings('alpha')).toBe(alpha);
  });

  it('costs a few bytes a posting', () => {
    const many = Array.from({ length: 1000 }, (_, index) => ({ id: 1000 + index * 3, length: 40 }));
    const postings = many.map((chunk) => ({ chunkId: chunk.id, tf: 2, tfHeading: 0, tfTitle: 0 }));
    const bytes = encodeSegment({ chunks: many, terms: new Map([['common', postings]]) });
    expect(bytes.length / postings.length).toBeLessThan(7);
  });

  it('refuses postings of unknown chunks and malformed bytes', () => {
    expect(() =>
      encodeSegment({
        chunks: [{ id: 1, length: 1 }],
        terms: new Map([['x', [{ chunkId: 2, tf: 1, tfHeading: 0, tfTitle: 0 }]]]),
      }),
    ).toThrow(SegmentFormatError);
    const bytes = encodeSegment({ chunks, terms });
    expect(() => new DecodedSegment(bytes.subarray(0, bytes.length - 1))).toThrow(SegmentFormatError);
    expect(() => new DecodedSegment(Uint8Array.of(9))).toThrow(/version/);
  });
});
