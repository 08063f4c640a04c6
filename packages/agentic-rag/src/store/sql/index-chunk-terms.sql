-- Fills the BM25 postings and lengths of a document's freshly inserted chunks from their tsvectors.
WITH terms AS (
  SELECT c.id, c.workspace_id, t.lexeme, coalesce(cardinality(t.positions), 1) AS tf
  FROM rag_chunks c, unnest(c.tsv) AS t
  WHERE c.document_id = ANY($1::bigint[])
),
postings AS (
  INSERT INTO rag_chunk_terms (workspace_id, lexeme, chunk_id, tf)
  SELECT workspace_id, lexeme, id, tf FROM terms
)
UPDATE rag_chunks c SET lexeme_count = lengths.total
FROM (SELECT id, sum(tf)::int AS total FROM terms GROUP BY id) AS lengths
WHERE c.id = lengths.id
