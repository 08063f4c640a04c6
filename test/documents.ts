import type { WriteDocumentInput } from '../packages/agentic-rag/src/index.js';

export interface SingleChunkDocumentOptions {
  workspaceId: string;
  sourcePath: string;
  text: string;
  /** Defaults to a unit vector along the first axis. */
  embedding?: readonly number[];
  embeddingModel?: string;
}

/**
 * A document of one chunk written straight to the store, skipping loaders and the chunker: for
 * tests that need exact control of what is indexed (hand-computed BM25, rollback, bulk loads).
 */
export function singleChunkDocument(options: SingleChunkDocumentOptions): WriteDocumentInput {
  const { workspaceId, sourcePath, text } = options;
  return {
    workspaceId,
    sourcePath,
    sourceFile: sourcePath,
    sourceRoot: 'hand',
    kind: 'text',
    title: null,
    url: null,
    content: text,
    contentHash: `hash-of-${text}`,
    pipelineFingerprint: 'hand',
    tokenCount: 3,
    metadata: {},
    embeddingModel: options.embeddingModel ?? 'test-model',
    embeddingDimensions: 768,
    chunks: [
      {
        chunkId: `chunk-${sourcePath}-${text}`,
        index: 0,
        text,
        tokenCount: 3,
        start: 0,
        end: text.length,
        sectionPath: [],
        metadata: {},
        embedding: options.embedding ?? Array.from({ length: 768 }, (_, index) => (index === 0 ? 1 : 0)),
      },
    ],
  };
}
