import { describe, expect, it } from 'vitest';
import { interleave } from './interleave.js';
import type { Searched } from './types.js';
import type { RetrievalHit } from './types.js';

const hit = (chunkId: string, score: number): RetrievalHit => ({
  id: 0,
  chunkId,
  documentId: 0,
  sourcePath: `${chunkId}.md`,
  kind: 'markdown',
  title: null,
  url: null,
  text: chunkId,
  tokenCount: 1,
  startOffset: 0,
  endOffset: 1,
  sectionPath: '',
  metadata: {},
  score,
  fusedScore: score,
  channels: {},
});

const searched = (
  hits: RetrievalHit[],
  stages: Array<{ name: string; ms: number }>,
  warnings: string[] = [],
): Searched => ({
  query: 'q',
  correctedQuery: null,
  corrections: [],
  filters: {},
  hits,
  stats: {
    stages,
    candidates: { vector: 1, lexical: 1, graph: 0 },
    reranker: null,
    warnings,
    fusion: { method: 'adaptive', weights: {} },
    queryEntities: [],
    unknownTerms: [],
  },
});

describe('interleave', () => {
  it('takes the narrowed and the plain hits in turn, narrowed first, each chunk once, k in all', () => {
    const focused = searched(
      [hit('op', 0.9), hit('op-2', 0.8), hit('op-3', 0.7)],
      [{ name: 'dense', ms: 2 }],
      ['slow'],
    );
    const broad = searched(
      [hit('op', 0.6), hit('guide', 0.5), hit('runbook', 0.4)],
      [{ name: 'dense', ms: 3 }],
      ['slow', 'typo'],
    );
    const blended = interleave(focused, broad, 4);
    expect(blended.hits.map((found) => found.chunkId)).toEqual(['op', 'op-2', 'guide', 'op-3']);
    // Both searches ran: their stage times add up; warnings are not repeated.
    expect(blended.stats.stages).toEqual([{ name: 'dense', ms: 5 }]);
    expect(blended.stats.warnings).toEqual(['slow', 'typo']);
  });

  it('runs out gracefully when one list is shorter', () => {
    const blended = interleave(
      searched([hit('a', 1)], []),
      searched([hit('b', 1), hit('c', 1), hit('d', 1)], []),
      10,
    );
    expect(blended.hits.map((found) => found.chunkId)).toEqual(['a', 'b', 'c', 'd']);
  });
});

describe('interleave scores', () => {
  it('never lets a hit the blend placed lower claim a higher score than the one above it', () => {
    const focused = searched([hit('op', 0.6), hit('op-2', 0.5)], []);
    const broad = searched([hit('guide', 0.9), hit('faq', 0.4)], []);
    const blended = interleave(focused, broad, 4).hits;
    expect(blended.map((entry) => [entry.chunkId, entry.score, entry.fusedScore])).toEqual([
      ['op', 0.6, 0.6],
      ['guide', 0.6, 0.9],
      ['op-2', 0.5, 0.5],
      ['faq', 0.4, 0.4],
    ]);
  });
});
