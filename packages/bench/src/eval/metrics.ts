/** Relevance judgments of one query: document id → graded relevance (0 = not relevant). */
export type Judgments = ReadonlyMap<string, number>;

/**
 * nDCG@k with linear gain (the relevance grade itself) and log2 discount, as trec_eval's
 * ndcg_cut and therefore BEIR's published numbers compute it.
 */
export function ndcgAt(ranked: readonly string[], judgments: Judgments, k: number): number {
  const dcg = ranked
    .slice(0, k)
    .reduce((sum, id, index) => sum + (judgments.get(id) ?? 0) / Math.log2(index + 2), 0);
  const ideal = [...judgments.values()]
    .filter((grade) => grade > 0)
    .sort((left, right) => right - left)
    .slice(0, k)
    .reduce((sum, grade, index) => sum + grade / Math.log2(index + 2), 0);
  return ideal > 0 ? dcg / ideal : 0;
}

/** Share of the relevant documents found in the top k. */
export function recallAt(ranked: readonly string[], judgments: Judgments, k: number): number {
  const relevant = [...judgments.entries()].filter(([, grade]) => grade > 0).map(([id]) => id);
  if (relevant.length === 0) return 0;
  const top = new Set(ranked.slice(0, k));
  return relevant.filter((id) => top.has(id)).length / relevant.length;
}

/** 1 / rank of the first relevant document within the top k, else 0. */
export function mrrAt(ranked: readonly string[], judgments: Judgments, k: number): number {
  const index = ranked.slice(0, k).findIndex((id) => (judgments.get(id) ?? 0) > 0);
  return index === -1 ? 0 : 1 / (index + 1);
}

/** The value below which `fraction` of the sorted values lie (nearest-rank). */
export function percentile(values: readonly number[], fraction: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1))]!;
}

export function mean(values: readonly number[]): number {
  return values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length;
}
