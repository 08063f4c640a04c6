import { describe, expect, it } from 'vitest';
import { mrrAt, ndcgAt, percentile, recallAt } from './metrics.js';

const judgments = new Map([
  ['a', 2],
  ['b', 1],
  ['c', 0],
]);

describe('retrieval metrics (values worked out by hand)', () => {
  it.each([
    // DCG = 2/log2(2) + 1/log2(3) = 2.630930; ideal is the same order: 1.0
    [['a', 'b', 'x'], 1],
    // DCG = 1/log2(2) + 2/log2(3) = 2.261860; / 2.630930 = 0.859719
    [['b', 'a'], 0.859719],
    // DCG = 2/log2(4) = 1; / 2.630930 = 0.380094
    [['x', 'c', 'a'], 0.380094],
    [['x', 'y'], 0],
  ])('nDCG@10 of %j', (ranked, expected) => {
    expect(ndcgAt(ranked, judgments, 10)).toBeCloseTo(expected, 5);
  });

  it('cuts nDCG at k: relevant documents below k earn nothing', () => {
    expect(ndcgAt(['x', 'a'], judgments, 1)).toBe(0);
    // At k = 1 the ideal is the grade-2 document alone.
    expect(ndcgAt(['a', 'b'], judgments, 1)).toBe(1);
  });

  it.each([
    [['a', 'b'], 100, 1],
    [['a'], 100, 0.5],
    [['x', 'b'], 1, 0],
    [['c'], 100, 0],
  ])('Recall of %j at %i', (ranked, k, expected) => {
    expect(recallAt(ranked, judgments, k)).toBe(expected);
  });

  it.each([
    [['a'], 1],
    [['x', 'c', 'b'], 1 / 3],
    [['x', 'y'], 0],
  ])('MRR@10 of %j', (ranked, expected) => {
    expect(mrrAt(ranked, judgments, 10)).toBeCloseTo(expected, 10);
  });

  it('scores a query without relevant documents as 0, not NaN', () => {
    const none = new Map([['a', 0]]);
    expect([ndcgAt(['a'], none, 10), recallAt(['a'], none, 100), mrrAt(['a'], none, 10)]).toEqual([0, 0, 0]);
  });

  it.each([
    [[5, 1, 3, 2, 4], 0.5, 3],
    [[5, 1, 3, 2, 4], 0.95, 5],
    [[7], 0.5, 7],
    [[], 0.5, 0],
  ])('percentile of %j at %f', (values, fraction, expected) => {
    expect(percentile(values, fraction)).toBe(expected);
  });
});
