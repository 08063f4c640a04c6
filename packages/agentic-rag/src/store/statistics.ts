import { loadSqlFile, type SqlExecutor } from '../db/index.js';

const REMOVE_STATISTICS = loadSqlFile(new URL('./sql/remove-statistics.sql', import.meta.url));

/**
 * Takes the documents' share out of the statistics; call before their chunks are deleted.
 * `writtenTitles` holds the titles the chunks were written with, for documents whose row a rewrite
 * has already updated (their title counts in every chunk's lexemes).
 */
export async function removeFromStatistics(
  tx: SqlExecutor,
  workspaceId: string,
  documentIds: readonly number[],
  writtenTitles: ReadonlyMap<number, string | null> = new Map(),
): Promise<void> {
  const emptied = await tx.query<{ lexeme: string }>(REMOVE_STATISTICS, [
    workspaceId,
    [...documentIds],
    [...writtenTitles.keys()],
    [...writtenTitles.values()],
  ]);
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
