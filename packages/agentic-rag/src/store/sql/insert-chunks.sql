-- Writes a batch of documents' chunks, with their tsvector and length (lexeme_count) computed once,
-- here, and returns their postings (one term frequency per field: body, heading trail, document
-- title) for the batch's lexical segment, with the batch's contribution to the statistics
-- aggregated over the whole batch, so each lexeme's counter is updated once per batch.
-- Parallel arrays, one element per chunk, are unnested into rows. The embedding arrives as
-- pgvector text ('[0.1,0.2,...]'). $1 workspace, $2 embedding model, $3 dimensions.
WITH input AS (
  SELECT t.*, rag_chunk_tsv(t.section_path, t.text) AS tsv
  FROM unnest($4::bigint[], $5::text[], $6::int[], $7::text[], $8::int[], $9::int[], $10::int[],
              $11::text[], $12::text[], $13::text[])
    AS t(document_id, chunk_id, chunk_index, text, token_count, start_offset, end_offset,
         section_path, metadata, embedding)
),
chunks AS (
  INSERT INTO rag_chunks (
    document_id, workspace_id, chunk_id, chunk_index, text, token_count, start_offset, end_offset,
    section_path, metadata, embedding, embedding_model, embedding_dimensions, tsv, lexeme_count
  )
  SELECT document_id, $1, chunk_id, chunk_index, text, token_count, start_offset, end_offset,
         section_path, metadata::jsonb, embedding::vector, $2, $3, tsv, rag_tsv_length(tsv)
  FROM input
  RETURNING id, document_id, tsv, lexeme_count
),
-- rag_chunk_fields() is the one definition of a chunk's lexemes; the title comes from the
-- document rows this transaction just wrote.
terms AS (
  SELECT c.id, c.lexeme_count, f.lexeme, f.tf, f.tf_heading, f.tf_title
  FROM chunks c
  JOIN rag_documents d ON d.id = c.document_id
  CROSS JOIN LATERAL rag_chunk_fields(d.title, c.tsv) AS f
)
-- What the batch adds to the workspace's statistics, for add-statistics.sql: each lexeme's
-- document frequency, and (on every row) the chunks' total length. Applying it is a separate,
-- short statement at the end of the transaction, so two writers overlap this one, the long one,
-- and queue only on the shared counters. Each lexeme's postings come back too, ordered by chunk
-- id, for the batch's lexical segment (store/lexical-segments). Ids as float8: both drivers
-- return bigint arrays as strings, and chunk ids stay far below 2^53.
SELECT t.lexeme, count(*)::int AS df, (SELECT coalesce(sum(lexeme_count), 0) FROM chunks)::bigint AS length_total,
       array_agg(t.id::float8 ORDER BY t.id) AS chunk_ids,
       array_agg(t.lexeme_count ORDER BY t.id) AS lengths,
       array_agg(t.tf ORDER BY t.id) AS tf,
       array_agg(t.tf_heading ORDER BY t.id) AS tf_heading,
       array_agg(t.tf_title ORDER BY t.id) AS tf_title
FROM terms t
GROUP BY t.lexeme
