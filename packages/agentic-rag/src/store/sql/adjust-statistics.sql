-- Adds ($3 = 1) or removes ($3 = -1) the documents' contribution to the workspace's BM25
-- statistics: document frequencies (locked in lexeme order, so concurrent writers cannot
-- deadlock) and the chunk count and total length. Returns the lexemes touched.
WITH contribution AS (
  SELECT p.lexeme, count(*) AS df
  FROM rag_chunk_terms p JOIN rag_chunks c ON c.id = p.chunk_id
  WHERE c.document_id = ANY($2::bigint[])
  GROUP BY p.lexeme
  ORDER BY p.lexeme
),
vocabulary AS (
  INSERT INTO rag_vocabulary AS v (workspace_id, lexeme, df)
  SELECT $1, lexeme, df * $3 FROM contribution
  ON CONFLICT (workspace_id, lexeme) DO UPDATE SET df = v.df + excluded.df
  RETURNING v.lexeme, v.df
),
totals AS (
  UPDATE rag_workspaces w
  SET chunk_count = w.chunk_count + $3 * s.chunks, lexeme_total = w.lexeme_total + $3 * s.lexemes
  FROM (SELECT count(*) AS chunks, coalesce(sum(lexeme_count), 0) AS lexemes
        FROM rag_chunks WHERE document_id = ANY($2::bigint[])) AS s
  WHERE w.id = $1
  RETURNING w.id
)
-- totals runs although nothing reads it: data-modifying CTEs always run to completion.
SELECT lexeme FROM vocabulary WHERE df <= 0
