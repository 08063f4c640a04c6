import type { ChunkDisplay } from '../store/index.js';
import type { Correction, Understanding, UnderstoodIntent } from '../understand/index.js';
import type { RetrievalFilters } from './filters.js';
import type { ChannelName, ChannelScore, ChannelWeight, FusionMethod, Normalization } from './fusion.js';

/**
 * What a retrieval is asked and answers: a leaf the retriever and its helpers (operation search,
 * interleaving, context building) all read, so none of them imports another for a type.
 */

export interface RetrieverSettings {
  weights: Record<ChannelName, number>;
  fusion: FusionMethod;
  normalization: Normalization;
  bm25: { k1: number; b: number; fields: { heading: number; title: number } };
  efSearch: number;
  /** Candidates each channel returns before fusion; also how many the reranker sees. */
  candidates: number;
  typoSimilarity: number;
  /** 1 = no diversification; lower trades relevance for variety (MMR). */
  mmrLambda: number;
  /** Hops of the graph channel's neighbourhood (0 turns the channel off). */
  graphHops: number;
  /** RM3 pseudo-relevance feedback on the lexical channel (see feedback.ts); weight 0 = off. */
  feedback: { documents: number; terms: number; weight: number };
  /**
   * Intent recognition and the metadata narrowing it picks (ENABLE_QUERY_ANALYSIS; default true).
   * Off, every question is searched as asked, under the caller's filters alone.
   */
  queryAnalysis?: boolean;
  /** Weight of WordNet synonyms among the query's terms (0: none). */
  synonymWeight?: number;
}

export type RetrievalChannel = 'vector' | 'lexical' | 'graph';

export interface RetrieveOptions {
  workspaceId: string;
  query: string;
  k?: number;
  /** Parsed filters (parseFilters, filters.ts): the service parses a caller's once, at the door. */
  filters?: RetrievalFilters;
  /** Channels to run (default all there are); the evaluation runs each alone. */
  channels?: ReadonlyArray<RetrievalChannel>;
  fusion?: FusionMethod;
  rerank?: boolean;
  /** Candidates per channel (default RETRIEVAL_CANDIDATES); evaluation at depth 100 needs 100. */
  candidates?: number;
  /** Narrow the first stage by the question's intent (default ENABLE_QUERY_ANALYSIS); see intent.ts. */
  intent?: boolean;
  /** RM3 feedback on the lexical channel (default: on when its configured weight is above 0). */
  feedback?: boolean;
  /**
   * A hypothetical answer (HyDE) embedded as a second dense query: a chunk's dense score is the
   * better of its similarity to the question and to this text.
   */
  hyde?: string;
  /** The question already understood (by ragAnswer's plan); without it retrieval understands it once. */
  understanding?: Understanding;
  signal?: AbortSignal;
  /** The workspace's corpus version, when the caller has read it where this retriever reads. */
  corpusVersion?: number;
}

export interface RetrievalHit extends ChunkDisplay {
  /**
   * The document's own metadata (a knowledge piece's types, tags and entity; a spec's operation),
   * on search hits; reference expansion does not read it.
   */
  documentMetadata?: Record<string, unknown>;
  /** The final score the hits are ordered by (rerank score when reranked, else fused). */
  score: number;
  fusedScore: number;
  /** Why it was retrieved: each channel's raw score, rank and normalised score. */
  channels: Partial<Record<ChannelName, ChannelScore>>;
  rerank?: { score: number; features?: Record<string, number> };
  /** Graph channel: the entities (strongest first) whose neighbourhood brought the chunk in. */
  graphEntities?: string[];
  /**
   * An API question's operation ranking: where the operation stood by its fields (BM25F with the
   * action's and target's factors) and by the chunk search, and the score those fused into.
   */
  operation?: {
    fieldRank: number | null;
    searchRank: number | null;
    score: number;
    factors: Record<string, number>;
  };
}

export interface StageTiming {
  name: string;
  ms: number;
}

export interface RetrievalResult {
  query: string;
  /** The query with corrections applied, when there were any; that is what was searched. */
  correctedQuery: string | null;
  corrections: Correction[];
  filters: RetrievalFilters;
  /** What the question asks for, how sure that is, and the narrowing that answered it (null: none). */
  intent: UnderstoodIntent & { narrowedTo: RetrievalFilters | null };
  /** Words the question was widened with (abbreviations, acronyms, clippings, synonyms). */
  expansions: Understanding['expansions'];
  hits: RetrievalHit[];
  stats: {
    stages: StageTiming[];
    candidates: Record<RetrievalChannel, number>;
    reranker: string | null;
    warnings: string[];
    /** How the channels were combined for this query, and what each counted for. */
    fusion: { method: FusionMethod; weights: Partial<Record<ChannelName, ChannelWeight>> };
    /** Entities the question named that the graph knows (the graph channel's own seeds). */
    queryEntities: string[];
    /**
     * Words of the question the workspace has never seen and could not correct ("gdpr"): what the
     * question is about, when the corpus does not cover it.
     */
    unknownTerms: string[];
  };
}

/** Work one question's searches share (a promise each, so concurrent searches wait for one). */
export interface SharedWork {
  embeddings?: Promise<number[][]>;
}

/** One search under one set of filters, before the intent is attached. */
export type Searched = Omit<RetrievalResult, 'intent' | 'expansions'>;
