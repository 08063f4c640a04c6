-- Adds ($3 = 1) or removes ($3 = -1) the documents' contribution to the workspace's BM25
-- statistics: document frequencies (locked in lexeme order, so concurrent writers cannot
-- deadlock), the lexicon of newly seen lexemes, and the chunk count and total length. Returns the
-- lexemes whose df fell to zero; the caller deletes them.
-- The contribution is the documents' postings (a chunk's lexemes in any field: body, heading
-- trail, title), so df always agrees with what BM25 reads; removal runs before the chunks go.
-- Each chunk's postings are read through its chunk_id index (LATERAL): mid-bulk-load the
-- planner's statistics are stale, and a plain join once made it scan every posting.
WITH contribution AS (
  SELECT p.lexeme, count(*) AS df
  FROM rag_chunks c
  CROSS JOIN LATERAL (SELECT t.lexeme FROM rag_chunk_terms t WHERE t.chunk_id = c.id) AS p
  WHERE c.document_id = ANY($2::bigint[])
  GROUP BY p.lexeme
  ORDER BY p.lexeme
),
vocabulary AS (
  INSERT INTO rag_vocabulary AS v (workspace_id, lexeme, df)
  SELECT $1, lexeme, df * $3 FROM contribution
  ON CONFLICT (workspace_id, lexeme) DO UPDATE SET df = v.df + excluded.df
  RETURNING v.lexeme, v.df, (v.xmax = 0) AS inserted
),
lexicon AS (
  INSERT INTO rag_lexicon (workspace_id, lexeme)
  SELECT $1, lexeme FROM vocabulary WHERE inserted AND $3 > 0
  ON CONFLICT DO NOTHING
),
totals AS (
  UPDATE rag_workspaces w
  SET chunk_count = w.chunk_count + $3 * s.chunks, lexeme_total = w.lexeme_total + $3 * s.lexemes
  FROM (SELECT count(*) AS chunks, coalesce(sum(lexeme_count), 0) AS lexemes
        FROM rag_chunks WHERE document_id = ANY($2::bigint[])) AS s
  WHERE w.id = $1
  RETURNING w.id
)
-- totals and lexicon run although nothing reads them: data-modifying CTEs always run to completion.
SELECT lexeme FROM vocabulary WHERE df <= 0
