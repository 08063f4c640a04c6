import type { RetrievalHit, RetrievalResult, StageTiming } from './retriever.js';

export interface ContextChunk {
  chunkId: string;
  sourcePath: string;
  title: string | null;
  url: string | null;
  sectionPath: string;
  text: string;
  tokenCount: number;
  startOffset: number;
  endOffset: number;
  score: number;
}

/** What the answer stage reads: the best chunks, then chunks they reference, within budgets. */
export interface KnowledgeContext {
  query: string;
  correctedQuery: string | null;
  primary: ContextChunk[];
  /** Chunks reached by following references from the primary ones (filled by the graph stage). */
  references: ContextChunk[];
  totalTokens: number;
  stats: {
    stages: StageTiming[];
    candidates: Record<string, number>;
    /** Which budgets cut the context short: 'token_budget', 'chunk_budget'. */
    limitsHit: string[];
    warnings: string[];
  };
}

export interface ContextBudget {
  tokenLimit: number;
  maxChunks: number;
}

/**
 * Packs hits in rank order into the token and chunk budgets. The best hit is always included,
 * even alone over budget, because an empty context answers nothing; later hits that do not fit
 * are left out and the limit is reported. References (graph work) only ever use what primary
 * chunks leave.
 */
export function assembleContext(
  result: RetrievalResult,
  budget: ContextBudget,
  references: readonly RetrievalHit[] = [],
): KnowledgeContext {
  const primary: ContextChunk[] = [];
  const limitsHit = new Set<string>();
  let totalTokens = 0;
  for (const hit of result.hits) {
    if (primary.length >= budget.maxChunks) {
      limitsHit.add('chunk_budget');
      break;
    }
    if (primary.length > 0 && totalTokens + hit.tokenCount > budget.tokenLimit) {
      limitsHit.add('token_budget');
      continue;
    }
    primary.push(toContextChunk(hit));
    totalTokens += hit.tokenCount;
  }
  const referenced: ContextChunk[] = [];
  const included = new Set(primary.map((chunk) => chunk.chunkId));
  for (const hit of references) {
    if (included.has(hit.chunkId)) continue;
    if (primary.length + referenced.length >= budget.maxChunks) {
      limitsHit.add('chunk_budget');
      break;
    }
    if (totalTokens + hit.tokenCount > budget.tokenLimit) {
      limitsHit.add('token_budget');
      continue;
    }
    referenced.push(toContextChunk(hit));
    included.add(hit.chunkId);
    totalTokens += hit.tokenCount;
  }
  return {
    query: result.query,
    correctedQuery: result.correctedQuery,
    primary,
    references: referenced,
    totalTokens,
    stats: {
      stages: result.stats.stages,
      candidates: result.stats.candidates,
      limitsHit: [...limitsHit],
      warnings: result.stats.warnings,
    },
  };
}

function toContextChunk(hit: RetrievalHit): ContextChunk {
  return {
    chunkId: hit.chunkId,
    sourcePath: hit.sourcePath,
    title: hit.title,
    url: hit.url,
    sectionPath: hit.sectionPath,
    text: hit.text,
    tokenCount: hit.tokenCount,
    startOffset: hit.startOffset,
    endOffset: hit.endOffset,
    score: hit.score,
  };
}
