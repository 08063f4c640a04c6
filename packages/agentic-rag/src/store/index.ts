export { CorpusStore, SECTION_SEPARATOR, vectorLiteral } from './corpus-store.js';
export type {
  CorpusStats,
  DocumentOrder,
  WorkspaceSummary,
  DocumentState,
  IndexBuildSettings,
  StoredChunkInput,
  StoredDocumentRef,
  WriteDocumentInput,
  StoredDocument,
  WriteDocumentResult,
  WriteStatus,
} from './corpus-store.js';
export { addStatistics, insertChunks } from './write-batch.js';
export type { ChunkRow, StatisticsDelta } from './write-batch.js';
export { ChunkReader, citable, readCorpusVersion } from './chunk-reader.js';
export type { ChunkDisplay, ChunkRecord, ChunkSurroundings, CitableChunk } from './chunk-reader.js';
export { recordIngestStage, unfinishedIngests } from './ingest-stages.js';
export type { IngestStageRecord } from './ingest-stages.js';
export { assertCurrentIntent, currentIntent, intendDeletion, intendIngest, withIntent } from './intents.js';
export type { DocumentIntent } from './intents.js';
export { checkCorpusIntegrity, integrityViolations } from './integrity.js';
export type { CorpusIntegrity } from './integrity.js';
export { JobStore } from './jobs.js';
export type { JobRecord, JobStatus } from './jobs.js';
export { assertWorkspaceId } from './workspace-id.js';
export {
  backfillLexicalSegments,
  LexicalSegmentCache,
  mergeSegments,
  SEGMENTS_PER_TIER,
  tierOf,
  workspacesWithoutSegments,
  writeSegment,
} from './lexical-segments/index.js';
export type {
  DecodedSegment,
  LexicalIndexView,
  PostingColumns,
  TermPostings,
} from './lexical-segments/index.js';
