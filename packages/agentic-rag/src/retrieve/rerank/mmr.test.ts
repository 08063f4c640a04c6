import { describe, expect, it } from 'vitest';
import { maximalMarginalRelevance } from './mmr.js';

// Stems: {rate, card, updat, procedur, carrier}; the near-duplicate adds "today" (Jaccard 5/6).
const TEXTS = [
  'Rate card update procedure for carriers',
  'Rate card update procedure for carriers today',
  'Incident escalation policy overview',
  'Weather forecast',
];
// Min-max scaled: 1, 0.9, 0.6, 0.
const RELEVANCE = [1, 0.9, 0.6, 0];

describe('maximalMarginalRelevance', () => {
  it.each<{ name: string; relevance: number[]; k: number; expected: number[] }>([
    { name: 'all items', relevance: RELEVANCE, k: 4, expected: [0, 1, 2, 3] },
    { name: 'the top two', relevance: RELEVANCE, k: 2, expected: [0, 1] },
    { name: 'unsorted relevance', relevance: [0.2, 0.9, 0.5, 0.7], k: 4, expected: [1, 3, 2, 0] },
    { name: 'k larger than the list', relevance: RELEVANCE, k: 10, expected: [0, 1, 2, 3] },
    { name: 'ties keep input order', relevance: [0.5, 0.5, 0.5, 0.5], k: 4, expected: [0, 1, 2, 3] },
    { name: 'k = 0', relevance: RELEVANCE, k: 0, expected: [] },
  ])('λ = 1 returns the plain relevance order: $name', ({ relevance, k, expected }) => {
    expect(maximalMarginalRelevance(TEXTS, relevance, k, 1)).toEqual(expected);
  });

  it('λ = 0.5 pushes the near-duplicate of the top item below a distinct item', () => {
    // Round 2: duplicate 0.5·0.9 − 0.5·5/6 ≈ 0.033, escalation 0.5·0.6 − 0 = 0.3, weather 0.
    // Round 3: duplicate 0.033 beats weather 0.
    expect(maximalMarginalRelevance(TEXTS, RELEVANCE, 4, 0.5)).toEqual([0, 2, 1, 3]);
  });

  it('λ = 0.5 with k = 2 leaves the near-duplicate out', () => {
    expect(maximalMarginalRelevance(TEXTS, RELEVANCE, 2, 0.5)).toEqual([0, 2]);
  });

  it('λ = 0.9 still keeps the near-duplicate second', () => {
    // Duplicate 0.9·0.9 − 0.1·5/6 ≈ 0.727 beats escalation 0.9·0.6 = 0.54.
    expect(maximalMarginalRelevance(TEXTS, RELEVANCE, 4, 0.9)).toEqual([0, 1, 2, 3]);
  });

  it('returns every item once when k is larger than the list', () => {
    expect(maximalMarginalRelevance(TEXTS, RELEVANCE, 10, 0.5)).toEqual([0, 2, 1, 3]);
  });

  it('with all-equal relevance lets dissimilarity decide after the first item', () => {
    // Every item scales to 1; the first in input order wins round 1, then "delta epsilon" shares
    // nothing with it (0.5) while "alpha beta gamma" shares 2 of 3 words (0.5 − 0.5·2/3).
    const texts = ['alpha beta', 'alpha beta gamma', 'delta epsilon'];
    expect(maximalMarginalRelevance(texts, [0.4, 0.4, 0.4], 3, 0.5)).toEqual([0, 2, 1]);
  });

  it('ignores stopwords and inflections when comparing texts', () => {
    // "The updates of the rate cards" and "Rate card update" have the same stems: Jaccard 1,
    // so round 2 is duplicate 0.5·0.8 − 0.5·1 = −0.1 against onboarding 0.5·0 − 0 = 0.
    const texts = ['Rate card update', 'The updates of the rate cards', 'Carrier onboarding checklist'];
    expect(maximalMarginalRelevance(texts, [1, 0.9, 0.5], 3, 0.5)).toEqual([0, 2, 1]);
  });

  it('returns nothing for no items', () => {
    expect(maximalMarginalRelevance([], [], 5, 0.5)).toEqual([]);
  });
});
