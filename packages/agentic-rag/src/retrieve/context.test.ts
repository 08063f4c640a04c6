import { describe, expect, it } from 'vitest';
import { assembleContext, type ContextBudget } from './context.js';
import type { ReferenceExpansion } from './references.js';
import type { RetrievalHit, RetrievalResult } from './types.js';

let nextId = 1;
/** A hit named `chunkId` holding `tokenCount` tokens; the rest is filler that must pass through. */
function hit(chunkId: string, tokenCount: number): RetrievalHit {
  const id = nextId++;
  return {
    id,
    chunkId,
    documentId: 100 + id,
    sourcePath: `docs/${chunkId}.md`,
    kind: 'markdown',
    title: `Title ${chunkId}`,
    url: null,
    text: `text of ${chunkId}`,
    tokenCount,
    startOffset: id * 10,
    endOffset: id * 10 + 9,
    sectionPath: `Guide > ${chunkId}`,
    metadata: { chapter: '1' },
    score: 1 / id,
    fusedScore: 0.5,
    channels: { vector: { score: 0.9, rank: 1, normalized: 1 } },
  };
}

function expansion(hits: RetrievalHit[], partial = false): ReferenceExpansion {
  return {
    references: hits.map((found) => ({ ...found, reference: { depth: 1, from: 'spec#op' } })),
    stats: {
      depth: 1,
      visited: hits.length,
      missing: [],
      revisited: 0,
      lookups: 1,
      partial,
      limitsHit: partial ? ['timeout'] : [],
      ms: 1,
    },
  };
}

function result(hits: RetrievalHit[]): RetrievalResult {
  return {
    query: 'rate card update',
    correctedQuery: 'rate card update',
    corrections: [],
    filters: {},
    intent: { kind: 'general', confidence: 1, reasons: [], source: 'none', narrowedTo: null },
    expansions: [],
    hits,
    stats: {
      stages: [{ name: 'dense', ms: 1.5 }],
      candidates: { vector: 40, lexical: 12, graph: 0 },
      reranker: 'heuristic',
      warnings: ['reranker slow'],
      fusion: { method: 'adaptive', weights: {} },
      queryEntities: [],
      unknownTerms: [],
    },
  };
}

const budget = (tokenLimit: number, maxChunks: number): ContextBudget => ({ tokenLimit, maxChunks });
const ids = (chunks: ReadonlyArray<{ chunkId: string }>) => chunks.map((chunk) => chunk.chunkId);

describe('assembleContext', () => {
  it.each<{
    name: string;
    tokens: number[];
    budget: ContextBudget;
    primary: string[];
    totalTokens: number;
    limitsHit: string[];
  }>([
    {
      name: 'everything fits',
      tokens: [50, 30, 20],
      budget: budget(100, 10),
      primary: ['h0', 'h1', 'h2'],
      totalTokens: 100,
      limitsHit: [],
    },
    {
      // 50 + 40 = 90; h2 would make 120 and is skipped; h3 brings it to exactly 100.
      name: 'a later hit over the token budget is skipped, a smaller one after it still fits',
      tokens: [50, 40, 30, 10],
      budget: budget(100, 10),
      primary: ['h0', 'h1', 'h3'],
      totalTokens: 100,
      limitsHit: ['token_budget'],
    },
    {
      name: 'the chunk budget stops the packing',
      tokens: [10, 10, 10, 10],
      budget: budget(1000, 2),
      primary: ['h0', 'h1'],
      totalTokens: 20,
      limitsHit: ['chunk_budget'],
    },
    {
      name: 'exactly maxChunks hits report no limit',
      tokens: [10, 10],
      budget: budget(1000, 2),
      primary: ['h0', 'h1'],
      totalTokens: 20,
      limitsHit: [],
    },
    {
      name: 'the first hit is included even alone over the token budget',
      tokens: [500, 10],
      budget: budget(100, 10),
      primary: ['h0'],
      totalTokens: 500,
      limitsHit: ['token_budget'],
    },
    {
      // h1 is skipped for tokens, then h2 and h3 fill the two chunks and h4 meets the chunk limit.
      name: 'both budgets, in the order they were hit',
      tokens: [60, 50, 10, 10, 10],
      budget: budget(100, 3),
      primary: ['h0', 'h2', 'h3'],
      totalTokens: 80,
      limitsHit: ['token_budget', 'chunk_budget'],
    },
    {
      name: 'no hits',
      tokens: [],
      budget: budget(100, 10),
      primary: [],
      totalTokens: 0,
      limitsHit: [],
    },
  ])('$name', ({ tokens, budget, primary, totalTokens, limitsHit }) => {
    const hits = tokens.map((count, index) => hit(`h${index}`, count));
    const context = assembleContext(result(hits), budget);
    expect(ids(context.primary)).toEqual(primary);
    expect(context.totalTokens).toBe(totalTokens);
    expect(context.stats.limitsHit).toEqual(limitsHit);
    expect(context.references).toEqual([]);
  });

  it('copies the fields the answer stage reads, and only those', () => {
    const first = hit('only', 42);
    const context = assembleContext(result([first]), budget(100, 5));
    expect(context.primary).toEqual([
      {
        chunkId: 'only',
        sourcePath: 'docs/only.md',
        title: 'Title only',
        url: null,
        sectionPath: 'Guide > only',
        text: 'text of only',
        tokenCount: 42,
        startOffset: first.startOffset,
        endOffset: first.endOffset,
        score: first.score,
      },
    ]);
  });

  it('passes the query, correction, stages, candidate counts and warnings through', () => {
    const context = assembleContext(result([hit('a', 1)]), budget(100, 5));
    expect(context.query).toBe('rate card update');
    expect(context.correctedQuery).toBe('rate card update');
    expect(context.stats).toEqual({
      stages: [{ name: 'dense', ms: 1.5 }],
      candidates: { vector: 40, lexical: 12, graph: 0 },
      limitsHit: [],
      warnings: ['reranker slow'],
      partial: false,
      references: null,
    });
  });

  describe('references', () => {
    it('use only what the primary chunks leave and never repeat a chunk', () => {
      // Primary a + b = 70 of 100. Reference b is already in; c → 90; d (20) would make 110 and is
      // skipped; e → 95 and brings the count to 4 = maxChunks, so f meets the chunk budget.
      const primary = [hit('a', 40), hit('b', 30)];
      const references = [hit('b', 30), hit('c', 20), hit('d', 20), hit('e', 5), hit('c', 20), hit('f', 1)];
      const context = assembleContext(result(primary), budget(100, 4), expansion(references));
      expect(ids(context.primary)).toEqual(['a', 'b']);
      expect(ids(context.references)).toEqual(['c', 'e']);
      expect(context.totalTokens).toBe(95);
      expect(context.stats.limitsHit).toEqual(['token_budget', 'chunk_budget']);
    });

    it('skip a repeated reference before counting it against the chunk budget', () => {
      const context = assembleContext(
        result([hit('a', 10)]),
        budget(100, 2),
        expansion([hit('b', 10), hit('b', 10)]),
      );
      expect(ids(context.references)).toEqual(['b']);
      expect(context.stats.limitsHit).toEqual([]);
    });

    it('get nothing when the primary chunks used the whole token budget', () => {
      const context = assembleContext(
        result([hit('a', 60), hit('b', 40)]),
        budget(100, 10),
        expansion([hit('c', 1)]),
      );
      expect(ids(context.references)).toEqual([]);
      expect(context.totalTokens).toBe(100);
      expect(context.stats.limitsHit).toEqual(['token_budget']);
    });

    it('get nothing when the primary chunks used the whole chunk budget', () => {
      const context = assembleContext(
        result([hit('a', 1), hit('b', 1)]),
        budget(100, 2),
        expansion([hit('c', 1)]),
      );
      expect(ids(context.references)).toEqual([]);
      expect(context.totalTokens).toBe(2);
      expect(context.stats.limitsHit).toEqual(['chunk_budget']);
    });

    it('take at most their share of the chunk slots (60/40), and only slots they can fill', () => {
      const primary = Array.from({ length: 15 }, (_, index) => hit(`p${index}`, 10));
      const references = Array.from({ length: 10 }, (_, index) => hit(`r${index}`, 10));
      const split = assembleContext(result(primary), budget(1000, 15), expansion(references));
      expect(split.primary).toHaveLength(9);
      expect(split.references).toHaveLength(6);
      expect(split.references[0]!.reference).toEqual({ depth: 1, from: 'spec#op' });
      // Two references need two slots; the primary hits keep the other thirteen.
      const few = assembleContext(result(primary), budget(1000, 15), expansion(references.slice(0, 2)));
      expect(few.primary).toHaveLength(13);
      expect(few.references).toHaveLength(2);
    });

    it('carry the expansion’s timeout as a partial context', () => {
      const context = assembleContext(
        result([hit('a', 10)]),
        budget(100, 4),
        expansion([hit('b', 10)], true),
      );
      expect(context.stats.partial).toBe(true);
      expect(context.stats.limitsHit).toContain('timeout');
    });

    it('are not exempt from the token budget the way the first primary hit is', () => {
      const context = assembleContext(
        result([]),
        budget(100, 10),
        expansion([hit('big', 150), hit('small', 30)]),
      );
      expect(ids(context.primary)).toEqual([]);
      expect(ids(context.references)).toEqual(['small']);
      expect(context.totalTokens).toBe(30);
      expect(context.stats.limitsHit).toEqual(['token_budget']);
    });
  });

  describe('RETRIEVAL_MAX_PRIMARY_RESULTS and CONTEXT_PRIORITIZE_PRIMARY', () => {
    /** Hits scored 1/id (ids 1..n in order), and references scored as given. */
    const scored = (chunkId: string, score: number, tokens = 10) => ({ ...hit(chunkId, tokens), score });

    it('take only the first maxPrimary hits as primary chunks', () => {
      const context = assembleContext(result([hit('a', 10), hit('b', 10), hit('c', 10)]), {
        ...budget(100, 10),
        maxPrimary: 2,
      });
      expect(ids(context.primary)).toEqual(['a', 'b']);
      expect(ids(context.chunks)).toEqual(['a', 'b']);
    });

    it('primary first when prioritised; by score alone when not, references competing for every slot', () => {
      const hits = [scored('p1', 0.9), scored('p2', 0.3)];
      const refs = expansion([scored('r1', 0.45), scored('r2', 0.1)]);
      const prioritized = assembleContext(result(hits), budget(100, 10), refs);
      expect(ids(prioritized.chunks)).toEqual(['p1', 'p2', 'r1', 'r2']);
      const byScore = assembleContext(result(hits), { ...budget(100, 10), prioritizePrimary: false }, refs);
      expect(ids(byScore.chunks)).toEqual(['p1', 'r1', 'p2', 'r2']);
      expect(ids(byScore.primary)).toEqual(['p1', 'p2']);
      expect(ids(byScore.references)).toEqual(['r1', 'r2']);
      // Three slots: prioritised keeps both hits; by score the weaker hit loses its slot.
      expect(ids(assembleContext(result(hits), budget(100, 3), refs).chunks)).toEqual(['p1', 'p2', 'r1']);
      const tight = assembleContext(result(hits), { ...budget(100, 2), prioritizePrimary: false }, refs);
      expect(ids(tight.chunks)).toEqual(['p1', 'r1']);
      expect(tight.stats.limitsHit).toEqual(['chunk_budget']);
    });
  });
});
