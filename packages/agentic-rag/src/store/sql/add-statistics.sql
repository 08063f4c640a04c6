-- Adds a batch's contribution (from insert-chunks.sql) to the workspace's BM25 statistics: the
-- document frequencies (locked in lexeme order, so concurrent writers cannot deadlock), the
-- lexicon of newly seen lexemes, and the chunk count and total length.
-- $1 workspace, $2 lexemes, $3 their document frequencies, $4 chunks, $5 their total length.
WITH vocabulary AS (
  INSERT INTO rag_vocabulary AS v (workspace_id, lexeme, df)
  SELECT $1, t.lexeme, t.df FROM unnest($2::text[], $3::int[]) AS t(lexeme, df) ORDER BY t.lexeme
  ON CONFLICT (workspace_id, lexeme) DO UPDATE SET df = v.df + excluded.df
  RETURNING v.lexeme, (v.xmax = 0) AS inserted
),
lexicon AS (
  INSERT INTO rag_lexicon (workspace_id, lexeme)
  SELECT $1, lexeme FROM vocabulary WHERE inserted
  ON CONFLICT DO NOTHING
)
UPDATE rag_workspaces
SET chunk_count = chunk_count + $4, lexeme_total = lexeme_total + $5
WHERE id = $1
