import { describe, expect, it } from 'vitest';
import { parseChunkSizes, parseCorpus } from './bench-options.js';

describe('parseChunkSizes', () => {
  it.each([
    ['20000', [20_000]],
    ['10000,100000', [10_000, 100_000]],
    ['10k, 100K,1M', [10_000, 100_000, 1_000_000]],
    ['2.5k', [2_500]],
  ])('%j is %j', (value, sizes) => {
    expect(parseChunkSizes(value)).toEqual(sizes);
  });

  it.each(['', '10', 'ten', '10000,,20000', '-5000'])('refuses %j', (value) => {
    expect(() => parseChunkSizes(value)).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
  });
});

describe('parseCorpus', () => {
  it('accepts the five corpora and refuses others', () => {
    expect(
      ['zipf', 'postgres-docs', 'python-docs', 'linux-docs', 'debian-docs'].map(parseCorpus),
    ).toHaveLength(5);
    expect(() => parseCorpus('beir')).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
  });
});
