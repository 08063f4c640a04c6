/**
 * A draw of an index with probability proportional to its weight, one `next()` per draw (a binary
 * search over the cumulative weights): the Zipf-like sampling of the synthetic corpus's vocabulary
 * and of the synthetic graph's entity popularity. Both corpora are fixed by their seeds, so the
 * draws must stay exactly these.
 */
export function weightedPicker(weights: readonly number[], next: () => number): () => number {
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  const cumulative: number[] = [];
  weights.reduce((sum, weight, index) => (cumulative[index] = sum + weight / total), 0);
  return () => {
    const target = next();
    let low = 0;
    let high = cumulative.length - 1;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (cumulative[middle]! < target) low = middle + 1;
      else high = middle;
    }
    return low;
  };
}
