export { CorpusStore, documentRowParams, SECTION_SEPARATOR, vectorLiteral } from './corpus-store.js';
export type {
  CorpusStats,
  DocumentState,
  StoredChunkInput,
  StoredDocumentRef,
  WriteDocumentInput,
  WriteDocumentResult,
  WriteStatus,
} from './corpus-store.js';
export { addToStatistics } from './statistics.js';
export { assertWorkspaceId } from './workspace-id.js';
