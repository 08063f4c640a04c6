-- Fills the BM25 postings (one term frequency per field: body, heading trail, document title) and
-- lengths of a document's freshly inserted chunks. rag_chunk_fields() reads the chunk's tsvector
-- and the title, so lexemes are stemmed exactly as the query is.
WITH terms AS (
  SELECT c.id, c.workspace_id, f.lexeme, f.tf, f.tf_heading, f.tf_title
  FROM rag_chunks c
  JOIN rag_documents d ON d.id = c.document_id
  CROSS JOIN LATERAL rag_chunk_fields(d.title, c.tsv) AS f
  WHERE c.document_id = ANY($1::bigint[])
),
-- A chunk's length is its heading and body lexemes, as BM25 normalises by what the chunk says.
lengths AS (
  SELECT id, sum(tf + tf_heading)::int AS total FROM terms GROUP BY id
),
postings AS (
  INSERT INTO rag_chunk_terms (workspace_id, lexeme, chunk_id, tf, tf_heading, tf_title, chunk_length)
  SELECT terms.workspace_id, terms.lexeme, terms.id, terms.tf, terms.tf_heading, terms.tf_title, lengths.total
  FROM terms JOIN lengths ON lengths.id = terms.id
)
UPDATE rag_chunks c SET lexeme_count = lengths.total
FROM lengths
WHERE c.id = lengths.id
