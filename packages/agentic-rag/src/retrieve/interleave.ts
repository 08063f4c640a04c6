import type { RetrievalHit, Searched } from './types.js';

/**
 * The narrowed hits and the plain ones taken in turn (narrowed first), each chunk once, k in
 * all. Stage timings add up: both searches ran. A hit's `score` is what the list is ordered by,
 * so a hit the blend placed below one that scored less is given that lower score; its own
 * evidence stays in `fusedScore`, `channels` and `rerank`.
 */
export function interleave(focused: Searched, broad: Searched, k: number): Searched {
  const hits: RetrievalHit[] = [];
  const seen = new Set<string>();
  for (
    let index = 0;
    hits.length < k && (index < focused.hits.length || index < broad.hits.length);
    index++
  ) {
    for (const hit of [focused.hits[index], broad.hits[index]]) {
      if (!hit || seen.has(hit.chunkId) || hits.length >= k) continue;
      seen.add(hit.chunkId);
      const above = hits.at(-1)?.score ?? Infinity;
      hits.push(hit.score > above ? { ...hit, score: above } : hit);
    }
  }
  const stages = new Map<string, number>();
  for (const stage of [...focused.stats.stages, ...broad.stats.stages])
    stages.set(stage.name, (stages.get(stage.name) ?? 0) + stage.ms);
  return {
    ...focused,
    hits,
    stats: {
      ...focused.stats,
      stages: [...stages].map(([name, ms]) => ({ name, ms })),
      warnings: [...new Set([...focused.stats.warnings, ...broad.stats.warnings])],
    },
  };
}
