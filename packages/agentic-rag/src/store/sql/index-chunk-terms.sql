-- Fills the BM25 postings and lengths of a document's freshly inserted chunks from their tsvectors.
WITH terms AS (
  SELECT c.id, c.workspace_id, t.lexeme, coalesce(cardinality(t.positions), 1) AS tf
  FROM rag_chunks c, unnest(c.tsv) AS t
  WHERE c.document_id = ANY($1::bigint[])
),
lengths AS (
  SELECT id, sum(tf)::int AS total FROM terms GROUP BY id
),
postings AS (
  INSERT INTO rag_chunk_terms (workspace_id, lexeme, chunk_id, tf, chunk_length)
  SELECT terms.workspace_id, terms.lexeme, terms.id, terms.tf, lengths.total
  FROM terms JOIN lengths ON lengths.id = terms.id
)
UPDATE rag_chunks c SET lexeme_count = lengths.total
FROM lengths
WHERE c.id = lengths.id
