import type { ReferenceExpansion, ReferenceHit } from './references.js';
import type { RetrievalResult, StageTiming } from './types.js';

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
  /** Paged sources (PDF) only: the page the chunk starts on, from its `page_number` metadata. */
  pageNumber?: number;
  /** References only: how far from a primary chunk, and through which document. */
  reference?: { depth: number; from: string };
}

/** What the answer stage reads: the best chunks, then chunks they reference, within budgets. */
export interface KnowledgeContext {
  query: string;
  correctedQuery: string | null;
  primary: ContextChunk[];
  /** Chunks reached by following references from the primary ones (filled by the graph stage). */
  references: ContextChunk[];
  /**
   * Every chunk of the context in the order an answer should read it: the primary ones then their
   * references (CONTEXT_PRIORITIZE_PRIMARY), or all of them by score alone.
   */
  chunks: ContextChunk[];
  totalTokens: number;
  stats: {
    stages: StageTiming[];
    candidates: Record<string, number>;
    /** Which budgets cut the context short: 'token_budget', 'chunk_budget', 'reference_budget', 'timeout'. */
    limitsHit: string[];
    warnings: string[];
    /** True when the reference expansion ran out of time: the context is usable but incomplete. */
    partial: boolean;
    references: ReferenceExpansion['stats'] | null;
  };
}

export interface ContextBudget {
  tokenLimit: number;
  maxChunks: number;
  /** Share of the chunk slots references may take (0.4: the 60/40 split). */
  referenceShare?: number;
  /** How many of the retrieval's hits may enter as primary chunks (RETRIEVAL_MAX_PRIMARY_RESULTS). */
  maxPrimary?: number;
  /**
   * True (CONTEXT_PRIORITIZE_PRIMARY, the default): primary chunks first and their slots kept,
   * references after them. False: hits and references compete on score alone for every slot.
   */
  prioritizePrimary?: boolean;
}

/**
 * Packs hits in rank order into the token and chunk budgets. The best hit is always included,
 * even alone over budget, because an empty context answers nothing; later hits that do not fit
 * are left out and the limit is reported. References may hold at most `referenceShare` of the
 * chunk slots (primary hits keep the rest, and any slots references do not need), and only the
 * tokens primary chunks leave.
 */
export function assembleContext(
  result: RetrievalResult,
  budget: ContextBudget,
  expansion: ReferenceExpansion | null = null,
): KnowledgeContext {
  const primary: ContextChunk[] = [];
  const limitsHit = new Set<string>(expansion?.stats.limitsHit ?? []);
  const hits = result.hits.slice(0, budget.maxPrimary ?? result.hits.length);
  const primaryIds = new Set(hits.map((hit) => hit.chunkId));
  const references = (expansion?.references ?? []).filter((hit) => !primaryIds.has(hit.chunkId));
  const stats = {
    stages: result.stats.stages,
    candidates: result.stats.candidates,
    warnings: result.stats.warnings,
    partial: expansion?.stats.partial ?? false,
    references: expansion?.stats ?? null,
  };
  if (budget.prioritizePrimary === false) {
    return {
      query: result.query,
      correctedQuery: result.correctedQuery,
      ...byScore(hits, references, budget, limitsHit),
      stats: { ...stats, limitsHit: [...limitsHit] },
    };
  }
  const reserved = Math.min(references.length, Math.floor(budget.maxChunks * (budget.referenceShare ?? 0.4)));
  const primarySlots = Math.max(1, budget.maxChunks - reserved);
  let totalTokens = 0;
  for (const hit of hits) {
    if (primary.length >= primarySlots) {
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
  for (const hit of references as readonly ReferenceHit[]) {
    if (included.has(hit.chunkId)) continue;
    if (primary.length + referenced.length >= budget.maxChunks) {
      limitsHit.add('chunk_budget');
      break;
    }
    if (totalTokens + hit.tokenCount > budget.tokenLimit) {
      limitsHit.add('token_budget');
      continue;
    }
    referenced.push({ ...toContextChunk(hit), reference: hit.reference });
    included.add(hit.chunkId);
    totalTokens += hit.tokenCount;
  }
  return {
    query: result.query,
    correctedQuery: result.correctedQuery,
    primary,
    references: referenced,
    chunks: [...primary, ...referenced],
    totalTokens,
    stats: { ...stats, limitsHit: [...limitsHit] },
  };
}

/**
 * Score alone: hits and references in one list, best first (a stable sort, so equal scores keep
 * the hits' rank and the references' breadth-first order), packed into the same budgets with no
 * slots kept for either kind. The best chunk is still always included.
 */
function byScore(
  hits: readonly RetrievalResult['hits'][number][],
  references: readonly ReferenceHit[],
  budget: ContextBudget,
  limitsHit: Set<string>,
): Pick<KnowledgeContext, 'primary' | 'references' | 'chunks' | 'totalTokens'> {
  const candidates = [...hits, ...references].sort((left, right) => right.score - left.score);
  const chunks: ContextChunk[] = [];
  const included = new Set<string>();
  let totalTokens = 0;
  for (const hit of candidates) {
    if (included.has(hit.chunkId)) continue;
    if (chunks.length >= budget.maxChunks) {
      limitsHit.add('chunk_budget');
      break;
    }
    if (chunks.length > 0 && totalTokens + hit.tokenCount > budget.tokenLimit) {
      limitsHit.add('token_budget');
      continue;
    }
    const reference = 'reference' in hit ? (hit as ReferenceHit).reference : undefined;
    chunks.push(reference ? { ...toContextChunk(hit), reference } : toContextChunk(hit));
    included.add(hit.chunkId);
    totalTokens += hit.tokenCount;
  }
  return {
    primary: chunks.filter((chunk) => !chunk.reference),
    references: chunks.filter((chunk) => chunk.reference),
    chunks,
    totalTokens,
  };
}

function toContextChunk(hit: RetrievalResult['hits'][number]): ContextChunk {
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
    ...(Number.isInteger(hit.metadata.page_number) ? { pageNumber: hit.metadata.page_number as number } : {}),
  };
}
