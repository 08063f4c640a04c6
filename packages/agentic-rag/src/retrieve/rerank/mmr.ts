import { stem, STOPWORDS, wordsOf } from '../../embed/index.js';

/**
 * Maximal marginal relevance: picks `k` items one at a time by λ·relevance − (1−λ)·(highest
 * similarity to an item already picked), with word-set Jaccard as the similarity (no vectors
 * needed). λ = 1 is the plain relevance order. Returns indexes into `texts`.
 */
export function maximalMarginalRelevance(
  texts: readonly string[],
  relevance: readonly number[],
  k: number,
  lambda: number,
): number[] {
  const order = relevance
    .map((_, index) => index)
    .sort((left, right) => relevance[right]! - relevance[left]!);
  if (lambda >= 1) return order.slice(0, k);
  const max = Math.max(...relevance);
  const min = Math.min(...relevance);
  const scaled = relevance.map((score) => (max > min ? (score - min) / (max - min) : 1));
  const sets = texts.map(
    (text) =>
      new Set(
        wordsOf(text)
          .filter((word) => !STOPWORDS.has(word))
          .map(stem),
      ),
  );
  const picked: number[] = [];
  const remaining = new Set(order);
  while (picked.length < k && remaining.size > 0) {
    let best = -1;
    let bestValue = -Infinity;
    for (const index of remaining) {
      const redundancy = Math.max(0, ...picked.map((other) => jaccard(sets[index]!, sets[other]!)));
      const value = lambda * scaled[index]! - (1 - lambda) * redundancy;
      if (value > bestValue) {
        best = index;
        bestValue = value;
      }
    }
    picked.push(best);
    remaining.delete(best);
  }
  return picked;
}

function jaccard(left: ReadonlySet<string>, right: ReadonlySet<string>): number {
  let shared = 0;
  for (const word of left) if (right.has(word)) shared++;
  const union = left.size + right.size - shared;
  return union === 0 ? 0 : shared / union;
}
