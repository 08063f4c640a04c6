-- Takes the documents' contribution out of the workspace's BM25 statistics: document
-- frequencies (locked in lexeme order, so concurrent writers cannot deadlock), and the chunk count
-- and total length. Returns the lexemes whose df fell to zero; the caller deletes them.
-- The contribution is the documents' postings (a chunk's lexemes in any field: body, heading
-- trail, title), so df always agrees with what BM25 reads; it runs before the chunks go.
-- insert-chunks.sql adds the contribution of new chunks.
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
-- An upsert rather than UPDATE ... FROM: it takes the rows' locks in the order of its input.
vocabulary AS (
  INSERT INTO rag_vocabulary AS v (workspace_id, lexeme, df)
  SELECT $1, lexeme, -df FROM contribution
  ON CONFLICT (workspace_id, lexeme) DO UPDATE SET df = v.df + excluded.df
  RETURNING v.lexeme, v.df
),
totals AS (
  UPDATE rag_workspaces w
  SET chunk_count = w.chunk_count - s.chunks, lexeme_total = w.lexeme_total - s.lexemes
  FROM (SELECT count(*) AS chunks, coalesce(sum(lexeme_count), 0) AS lexemes
        FROM rag_chunks WHERE document_id = ANY($2::bigint[])) AS s
  WHERE w.id = $1
  RETURNING w.id
)
-- totals runs although nothing reads it: data-modifying CTEs always run to completion.
SELECT lexeme FROM vocabulary WHERE df <= 0
