export { HybridRetriever, MAX_K, MAX_QUERY_LENGTH } from './retriever.js';
export type {
  RetrievalHit,
  RetrievalResult,
  RetrieveOptions,
  RetrieverSettings,
  Searched,
  StageTiming,
} from './types.js';
export { createReranker, createRetriever } from './create-retriever.js';
export { assembleContext } from './context.js';
export { buildContext } from './build-context.js';
export { expandReferences } from './references.js';
export type { ReferenceExpansion, ReferenceHit, ReferenceSettings } from './references.js';
export type { ContextBudget, ContextChunk, KnowledgeContext } from './context.js';
export { fuse } from './fusion.js';
export type {
  ChannelCandidates,
  ChannelName,
  ChannelScore,
  FusedCandidate,
  FusionMethod,
  FusionOptions,
  Normalization,
} from './fusion.js';
export { parseFilters } from './filters.js';
export type { RetrievalFilters } from './filters.js';
export { bm25Idf } from './channels.js';
export { HeuristicReranker } from './rerank/heuristic.js';
export { HttpCrossEncoderReranker } from './rerank/http-cross-encoder.js';
export type { HttpCrossEncoderOptions } from './rerank/http-cross-encoder.js';
export type { Reranker, RerankCandidate, RerankOptions, RerankResult } from './rerank/reranker.js';
export { maximalMarginalRelevance } from './rerank/mmr.js';
export { extractIdentifiers } from './rerank/identifiers.js';
export { findEndpoints, OPERATION_TYPES } from './endpoints.js';
export type {
  EndpointSources,
  FindEndpointsOptions,
  FoundEndpoint,
  FoundEndpoints,
  OperationTypeName,
} from './endpoints.js';
