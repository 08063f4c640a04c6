-- 2026-11-27_1_bulk_ingest: a chunk is written once, by one INSERT, with everything known then.
-- Measured on Postgres (2,000 chunks, each statement timed): after the INSERT, an UPDATE set
-- lexeme_count on every fresh row (13% of ingest time; 92% of those updates were not HOT, since
-- each rewrote a wide row with two 768-d vector copies), and every chunk also went into a GIN
-- index on its tsvector that no query reads (BM25 reads rag_chunk_terms).
--   tsv              now a plain column: the INSERT computes it with rag_chunk_tsv() and, from
--                    the same value, lexeme_count and the postings, instead of generating it
--   embedding_array  dropped: nothing reads the real[] copy (an export can cast embedding::real[]),
--                    and it doubled the bytes each chunk writes
--   rag_chunks_tsv_idx dropped: unused

-- The one definition of a chunk's tsvector: the heading trail weighted A, the text B.
CREATE FUNCTION rag_chunk_tsv(section_path text, body text)
RETURNS tsvector
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT setweight(to_tsvector('english', coalesce(section_path, '')), 'A') ||
         setweight(to_tsvector('english', body), 'B')
$$;

-- A chunk's length for BM25: its heading and body lexemes, each position counted (a stripped
-- lexeme, with no positions, counts once), as rag_chunk_fields() counts tf + tf_heading.
CREATE FUNCTION rag_tsv_length(tsv tsvector)
RETURNS integer
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(sum(coalesce(cardinality(t.weights), 1)), 0)::integer FROM unnest(tsv) AS t
$$;

ALTER TABLE rag_chunks ALTER COLUMN tsv DROP EXPRESSION;
ALTER TABLE rag_chunks DROP COLUMN embedding_array;
DROP INDEX IF EXISTS rag_chunks_tsv_idx;
