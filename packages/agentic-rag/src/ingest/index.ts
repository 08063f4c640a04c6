export type { Block, BlockType, LoadedDocument, LoadFailure, PageStart, SourceKind } from './document.js';
export { chunkPages, pageAt } from './pages.js';
export { chunkText } from './chunker.js';
export type { Chunk, ChunkerOptions, ChunkMetadata } from './chunker.js';
export { cl100kTokenizer } from './tokenizer.js';
export type { Tokenizer } from './tokenizer.js';
export { contentHash, pipelineFingerprint, stableChunkId } from './content-hash.js';
export { discoverFiles, resolveInsideRoot } from './discover.js';
export { discoverSources } from './sources.js';
export type { Source } from './sources.js';
export type { DiscoveredFile, Discovery, InsideRoot } from './discover.js';
export { IngestPipeline } from './pipeline.js';
export type {
  DocumentSource,
  PendingWork,
  IngestStage,
  StageEvent,
  IngestPipelineOptions,
  IngestStore,
  IngestSourcesOptions,
} from './pipeline-options.js';
export type {
  DocumentOutcome,
  IngestFailure,
  IngestRedaction,
  IngestProgress,
  IngestSummary,
} from './summary.js';
export { countIngest, emptySummary, STOP_THE_RUN, tally } from './summary.js';
export { DEFAULT_BATCH_LIMITS, EMBEDDED_BATCH_LIMITS, WriteBatcher } from './write-batcher.js';
export type { WriteBatcherLimits } from './write-batcher.js';
export * from './loaders/index.js';
export { findSecrets, redactSecrets, screenDocument } from './secrets/index.js';
export type { SecretFinding, SecretRedaction, SecretsMode, Screened } from './secrets/index.js';
