import type { Sql } from '../db/index.js';
import type { IngestStore } from '../ingest/index.js';
import type { CorpusStore, WriteDocumentInput, WriteDocumentResult } from '../store/index.js';
import { addToStatistics, documentRowParams, vectorLiteral } from '../store/index.js';

/**
 * The baseline the benchmark compares against: what a first implementation usually does — one
 * INSERT per chunk, each its own autocommitted statement, into a live vector index. It writes the
 * same BM25 postings and statistics as the product (a baseline that skips work measures nothing).
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
    async writeDocument(input: WriteDocumentInput): Promise<WriteDocumentResult> {
      await sql.query('INSERT INTO rag_workspaces (id) VALUES ($1) ON CONFLICT DO NOTHING', [
        input.workspaceId,
      ]);
      const document = await sql.query<{ id: number }>(
        `INSERT INTO rag_documents (workspace_id, source_path, source_file, source_root, source_kind, title, url, content,
           content_hash, pipeline_fingerprint, token_count, corpus_version, metadata)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 0, $12::jsonb) RETURNING id`,
        documentRowParams(input),
      );
      const documentId = document.rows[0]!.id;
      for (const chunk of input.chunks) {
        await sql.query(
          `INSERT INTO rag_chunks (document_id, workspace_id, chunk_id, chunk_index, text, token_count, start_offset,
             end_offset, section_path, metadata, embedding, embedding_array, embedding_model, embedding_dimensions)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::jsonb, $11::vector, $11::vector::real[], $12, $13)`,
          [
            documentId,
            input.workspaceId,
            chunk.chunkId,
            chunk.index,
            chunk.text,
            chunk.tokenCount,
            chunk.start,
            chunk.end,
            chunk.sectionPath.join(' > '),
            JSON.stringify(chunk.metadata),
            vectorLiteral(chunk.embedding),
            input.embeddingModel,
            input.embeddingDimensions,
          ],
        );
      }
      await addToStatistics(sql, input.workspaceId, [documentId]);
      const version = await sql.query<{ corpus_version: number }>(
        'UPDATE rag_workspaces SET corpus_version = corpus_version + 1 WHERE id = $1 RETURNING corpus_version',
        [input.workspaceId],
      );
      return { status: 'added', documentId, corpusVersion: version.rows[0]!.corpus_version };
    },
  };
}
