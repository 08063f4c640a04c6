import type { Config } from '../config/index.js';
import type { Sql } from '../db/index.js';
import type { Embedder } from '../embed/index.js';
import type { GraphStore } from '../graph/index.js';
import type { Logger } from '../telemetry/index.js';
import { HeuristicReranker } from './rerank/heuristic.js';
import { HttpCrossEncoderReranker } from './rerank/http-cross-encoder.js';
import type { Reranker } from './rerank/reranker.js';
import { HybridRetriever } from './retriever.js';

export function createReranker(config: Config): Reranker | null {
  if (config.RAG_RERANKER === 'none') return null;
  if (config.RAG_RERANKER === 'http') {
    return new HttpCrossEncoderReranker({
      baseUrl: config.RAG_RERANKER_URL!,
      timeoutMs: config.RAG_RERANKER_TIMEOUT_MS,
    });
  }
  return new HeuristicReranker();
}

/** The retriever the configuration describes; without a graph store there is no graph channel. */
export function createRetriever(
  config: Config,
  sql: Sql,
  embedder: Embedder,
  logger?: Logger,
  graph: GraphStore | null = null,
): HybridRetriever {
  return new HybridRetriever(
    sql,
    embedder,
    {
      weights: {
        vector: config.HYBRID_VECTOR_WEIGHT,
        lexical: config.HYBRID_LEXICAL_WEIGHT,
        graph: config.HYBRID_GRAPH_WEIGHT,
      },
      fusion: config.HYBRID_FUSION,
      normalization: config.HYBRID_NORMALIZATION,
      bm25: {
        k1: config.BM25_K1,
        b: config.BM25_B,
        fields: { heading: config.BM25_HEADING_WEIGHT, title: config.BM25_TITLE_WEIGHT },
      },
      efSearch: config.HNSW_EF_SEARCH,
      candidates: config.RETRIEVAL_CANDIDATES,
      typoSimilarity: config.TYPO_SIMILARITY_THRESHOLD,
      synonymWeight: config.QUERY_SYNONYM_WEIGHT,
      mmrLambda: config.MMR_LAMBDA,
      graphHops: config.RETRIEVAL_GRAPH_HOPS,
      feedback: {
        documents: config.LEXICAL_FEEDBACK_DOCUMENTS,
        terms: config.LEXICAL_FEEDBACK_TERMS,
        weight: config.LEXICAL_FEEDBACK_WEIGHT,
      },
      queryAnalysis: config.ENABLE_QUERY_ANALYSIS,
    },
    createReranker(config),
    logger,
    graph,
  );
}
