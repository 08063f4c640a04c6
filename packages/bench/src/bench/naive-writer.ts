import {
  addStatistics,
  type CorpusStore,
  type IngestStore,
  insertChunks,
  type Sql,
  type WriteDocumentInput,
  type WriteDocumentResult,
  writeSegment,
} from '@agentic-rag/core';

/**
 * The baseline the benchmark compares against: what a first implementation usually does — one
 * INSERT per chunk, each its own autocommitted statement, into a live vector index. Each goes
 * through the product's chunk statement, so it writes the same BM25 postings and statistics (a
 * baseline that skips work measures nothing).
 * Not used by the product.
 */
export function naiveWriter(sql: Sql, store: CorpusStore): IngestStore {
  return {
    withBulkLoad: (work) => work(),
    documentState: (workspaceId, sourcePath) => store.documentState(workspaceId, sourcePath),
    listDocuments: (workspaceId, sourceRoot) => store.listDocuments(workspaceId, sourceRoot),
    deleteDocuments: (workspaceId, sourcePaths) => store.deleteDocuments(workspaceId, sourcePaths),
    stats: (workspaceId) => store.stats(workspaceId),
    corpusVersion: (workspaceId) => store.corpusVersion(workspaceId),
    // One document at a time, as a first implementation would, whatever the pipeline batches.
    async writeDocuments(inputs: readonly WriteDocumentInput[]): Promise<WriteDocumentResult[]> {
      const results: WriteDocumentResult[] = [];
      for (const input of inputs) results.push(await this.writeDocument(input));
      return results;
    },
    async writeDocument(input: WriteDocumentInput): Promise<WriteDocumentResult> {
      await sql.query('INSERT INTO rag_workspaces (id) VALUES ($1) ON CONFLICT DO NOTHING', [
        input.workspaceId,
      ]);
      const document = await sql.query<{ id: number }>(
        `INSERT INTO rag_documents (workspace_id, source_path, source_file, source_root, source_kind, title, url, content,
           content_hash, pipeline_fingerprint, token_count, corpus_version, metadata)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 0, $12::jsonb) RETURNING id`,
        [
          input.workspaceId,
          input.sourcePath,
          input.sourceFile,
          input.sourceRoot,
          input.kind,
          input.title,
          input.url,
          input.content,
          input.contentHash,
          input.pipelineFingerprint,
          input.tokenCount,
          JSON.stringify(input.metadata),
        ],
      );
      const documentId = document.rows[0]!.id;
      for (const chunk of input.chunks) {
        const delta = await insertChunks(
          sql,
          input.workspaceId,
          input.embeddingModel,
          input.embeddingDimensions,
          [{ ...chunk, documentId }],
        );
        await addStatistics(sql, input.workspaceId, delta);
        await writeSegment(sql, input.workspaceId, delta.postings ?? []);
      }
      const version = await sql.query<{ corpus_version: number }>(
        'UPDATE rag_workspaces SET corpus_version = corpus_version + 1 WHERE id = $1 RETURNING corpus_version',
        [input.workspaceId],
      );
      return { status: 'added', documentId, corpusVersion: version.rows[0]!.corpus_version };
    },
  };
}
