import type { SqlExecutor } from '../db/index.js';

/** A chunk with what a citation shows of it. */
export interface CitableChunk {
  sourceId: string;
  chunkId: string;
  title: string | null;
  url: string | null;
  text: string;
  startOffset: number;
  endOffset: number;
}

/**
 * Chunks of a workspace by document, by chunk id and/or by a string they contain, in document
 * then chunk order: for stages that fetch a specific passage outside the ranked retrieval (an
 * operation's request example, an entity's defining chunk).
 */
export async function citableChunks(
  sql: SqlExecutor,
  workspaceId: string,
  where: { sourcePaths?: readonly string[]; chunkIds?: readonly string[]; containing?: string },
): Promise<CitableChunk[]> {
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
     WHERE d.workspace_id = $1
       AND ($2::text[] IS NULL OR d.source_path = ANY($2::text[]))
       AND ($3::text[] IS NULL OR c.chunk_id = ANY($3::text[]))
       AND ($4::text IS NULL OR strpos(c.text, $4) > 0)
     ORDER BY d.source_path, c.chunk_index`,
    [
      workspaceId,
      where.sourcePaths ? [...where.sourcePaths] : null,
      where.chunkIds ? [...where.chunkIds] : null,
      where.containing ?? null,
    ],
  );
  return result.rows.map((row) => ({
    sourceId: row.source_path,
    chunkId: row.chunk_id,
    title: row.title,
    url: row.url,
    text: row.text,
    startOffset: row.start_offset,
    endOffset: row.end_offset,
  }));
}

/** The document text just before and just after a chunk. */
export interface ChunkSurroundings {
  before: string;
  after: string;
}

/**
 * Up to `chars` characters of each chunk's document on either side of it, by chunk id, in one
 * query: what a sentence cut by a chunk boundary continues with (offsets and `substr` both count
 * code points).
 */
export async function chunkSurroundings(
  sql: SqlExecutor,
  workspaceId: string,
  chunkIds: readonly string[],
  chars: number,
): Promise<Map<string, ChunkSurroundings>> {
  if (chunkIds.length === 0) return new Map();
  const result = await sql.query<{ chunk_id: string; before: string; after: string }>(
    `SELECT c.chunk_id,
            substr(d.content, greatest(1, c.start_offset - $3 + 1), least(c.start_offset, $3)) AS before,
            substr(d.content, c.end_offset + 1, $3) AS after
       FROM rag_chunks c JOIN rag_documents d ON d.id = c.document_id
      WHERE c.workspace_id = $1 AND c.chunk_id = ANY($2::text[])`,
    [workspaceId, [...new Set(chunkIds)], chars],
  );
  return new Map(
    result.rows.map((row) => [row.chunk_id, { before: row.before ?? '', after: row.after ?? '' }]),
  );
}
