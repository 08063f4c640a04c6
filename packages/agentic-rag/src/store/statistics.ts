import { loadSqlFile, type SqlExecutor } from '../db/index.js';

const INDEX_CHUNK_TERMS = loadSqlFile(new URL('./sql/index-chunk-terms.sql', import.meta.url));
const ADJUST_STATISTICS = loadSqlFile(new URL('./sql/adjust-statistics.sql', import.meta.url));

/** Postings and lengths for chunks just inserted, then their share of the workspace statistics. */
export async function addToStatistics(
  tx: SqlExecutor,
  workspaceId: string,
  documentIds: readonly number[],
): Promise<void> {
  await tx.query(INDEX_CHUNK_TERMS, [[...documentIds]]);
  await tx.query(ADJUST_STATISTICS, [workspaceId, [...documentIds], 1]);
}

/** Takes the documents' share out of the statistics; call before their chunks are deleted. */
export async function removeFromStatistics(
  tx: SqlExecutor,
  workspaceId: string,
  documentIds: readonly number[],
): Promise<void> {
  const emptied = await tx.query<{ lexeme: string }>(ADJUST_STATISTICS, [workspaceId, [...documentIds], -1]);
  if (emptied.rowCount > 0) {
    const lexemes = emptied.rows.map((row) => row.lexeme);
    await tx.query(
      'DELETE FROM rag_vocabulary WHERE workspace_id = $1 AND lexeme = ANY($2::text[]) AND df <= 0',
      [workspaceId, lexemes],
    );
    await tx.query(
      `DELETE FROM rag_lexicon l WHERE l.workspace_id = $1 AND l.lexeme = ANY($2::text[])
         AND NOT EXISTS (SELECT 1 FROM rag_vocabulary v WHERE v.workspace_id = l.workspace_id AND v.lexeme = l.lexeme)`,
      [workspaceId, lexemes],
    );
  }
}
