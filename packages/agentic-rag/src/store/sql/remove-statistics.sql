-- Takes the documents' contribution out of the workspace's BM25 statistics: document
-- frequencies (locked in lexeme order, so concurrent writers cannot deadlock), and the chunk count
-- and total length. Returns the lexemes whose df fell to zero; the caller deletes them.
-- The contribution is each chunk's lexemes in any field (body and heading trail from its tsvector,
-- the title its document had when the chunk was written, $3/$4 where a rewrite has just replaced
-- it), by rag_chunk_fields(), the definition insert-chunks.sql adds with, so df always agrees
-- with what BM25 reads; it runs before the chunks go.
WITH titles AS (
  SELECT d.id, CASE WHEN written.id IS NULL THEN d.title ELSE written.title END AS title
  FROM rag_documents d
  LEFT JOIN unnest($3::bigint[], $4::text[]) AS written(id, title) ON written.id = d.id
  WHERE d.id = ANY($2::bigint[])
),
contribution AS (
  SELECT f.lexeme, count(*) AS df
  FROM rag_chunks c
  JOIN titles t ON t.id = c.document_id
  CROSS JOIN LATERAL rag_chunk_fields(t.title, c.tsv) AS f
  WHERE c.document_id = ANY($2::bigint[])
  GROUP BY f.lexeme
  ORDER BY f.lexeme
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
