import type { Sql } from '../../db/index.js';
import type { Source } from '../sources.js';

const MARKER = 'Example request body:';

/**
 * The request-example chunks of the best API operations retrieved, when retrieval did not bring
 * them: an operation's example usually sits in a later chunk than its summary, and a caller
 * asking which endpoint to use wants to see what to send.
 */
export async function requestExamples(
  sql: Sql,
  workspaceId: string,
  sources: readonly Source[],
  limit = 2,
): Promise<Source[]> {
  const operations = [
    ...new Set(
      sources
        .filter((source) => source.origin === 'primary' && source.sourceId.includes('#paths/'))
        .map((source) => source.sourceId),
    ),
  ].slice(0, limit);
  if (operations.length === 0) return [];
  const have = new Set(sources.map((source) => source.chunkId));
  const result = await sql.query<{
    source_path: string;
    chunk_id: string;
    title: string | null;
    url: string | null;
    text: string;
    start_offset: number;
    end_offset: number;
  }>(
    `SELECT d.source_path, c.chunk_id, d.title, d.url, c.text, c.start_offset, c.end_offset
     FROM rag_documents d JOIN rag_chunks c ON c.document_id = d.id
     WHERE d.workspace_id = $1 AND d.source_path = ANY($2::text[]) AND strpos(c.text, $3) > 0
     ORDER BY array_position($2::text[], d.source_path), c.chunk_index`,
    [workspaceId, operations, MARKER],
  );
  const rank = sources.length;
  return result.rows
    .filter((row) => !have.has(row.chunk_id))
    .map((row, index) => ({
      sourceId: row.source_path,
      chunkId: row.chunk_id,
      title: row.title,
      url: row.url,
      text: row.text,
      startOffset: row.start_offset,
      endOffset: row.end_offset,
      score: 0,
      rank: rank + index,
      origin: 'reference' as const,
    }));
}
