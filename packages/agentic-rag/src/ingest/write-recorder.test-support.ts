import type { WriteDocumentInput, WriteDocumentResult } from '../store/index.js';

/** A prepared document of `chunks` empty chunks. */
export function input(sourcePath: string, chunks = 1): WriteDocumentInput {
  return {
    workspaceId: 'w',
    sourcePath,
    sourceFile: sourcePath,
    sourceRoot: 'root',
    kind: 'markdown',
    title: null,
    url: null,
    content: '',
    contentHash: sourcePath,
    pipelineFingerprint: 'f',
    tokenCount: 0,
    metadata: {},
    embeddingModel: 'm',
    embeddingDimensions: 1,
    chunks: Array.from({ length: chunks }, (_, index) => ({
      chunkId: `${sourcePath}#${index}`,
      index,
      text: '',
      tokenCount: 0,
      start: 0,
      end: 0,
      sectionPath: [],
      metadata: {},
      embedding: [0],
    })),
  };
}

/** Records each write's batch; `fail` decides which batches throw. */
export function recorder(fail: (paths: string[]) => Error | null = () => null) {
  const batches: string[][] = [];
  let concurrent = 0;
  let maxConcurrent = 0;
  const write = async (inputs: readonly WriteDocumentInput[]): Promise<WriteDocumentResult[]> => {
    const paths = inputs.map((item) => item.sourcePath);
    batches.push(paths);
    maxConcurrent = Math.max(maxConcurrent, ++concurrent);
    await new Promise((resolve) => setTimeout(resolve, 5));
    concurrent--;
    const error = fail(paths);
    if (error) throw error;
    return inputs.map((_, index) => ({ status: 'added', documentId: index, corpusVersion: batches.length }));
  };
  return { write, batches, maxConcurrent: () => maxConcurrent };
}
