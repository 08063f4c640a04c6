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
--   rag_chunk_terms' foreign key to rag_chunks replaced by a statement trigger that deletes a
--                    deleted chunk's postings: the key's per-row check cost as much as inserting
--                    the postings into both their indexes (3.9 s of 7.5 s for 330k postings)
--   rag_chunk_fields() counts a lexeme's fields with array functions instead of two correlated
--                    subqueries per lexeme: same rows, a quarter of the time (0.39 s v 1.47 s)

-- The one definition of a chunk's tsvector: the heading trail weighted A, the text B.
CREATE FUNCTION rag_chunk_tsv(section_path text, body text)
RETURNS tsvector
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT setweight(to_tsvector('english', coalesce(section_path, '')), 'A') ||
         setweight(to_tsvector('english', body), 'B')
$$;

-- A chunk's length for BM25: its heading and body lexemes, each position counted, exactly the sum
-- of tf + tf_heading over rag_chunk_fields().
CREATE FUNCTION rag_tsv_length(tsv tsvector)
RETURNS integer
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(sum(coalesce(cardinality(t.weights), 0)), 0)::integer FROM unnest(tsv) AS t
$$;

-- A lexeme's positions carry their weight: A in the heading trail, B in the body.
CREATE OR REPLACE FUNCTION rag_chunk_fields(title text, tsv tsvector)
RETURNS TABLE (lexeme text, tf integer, tf_heading integer, tf_title integer)
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT f.lexeme, sum(f.body)::integer, sum(f.heading)::integer, sum(f.title)::integer
  FROM (
    SELECT t.lexeme,
           coalesce(cardinality(t.weights), 0) - coalesce(cardinality(array_positions(t.weights, 'A')), 0) AS body,
           coalesce(cardinality(array_positions(t.weights, 'A')), 0) AS heading,
           0 AS title
    FROM unnest(tsv) AS t
    UNION ALL
    SELECT t.lexeme, 0, 0, coalesce(cardinality(t.positions), 1)
    FROM unnest(to_tsvector('english', coalesce(title, ''))) AS t
  ) AS f
  GROUP BY f.lexeme
$$;

ALTER TABLE rag_chunk_terms DROP CONSTRAINT rag_chunk_terms_chunk_id_fkey;

-- Postings go with their chunk however it is deleted (a document's replacement, a delete, a
-- workspace's cascade): once per statement, through rag_chunk_terms_chunk_idx.
CREATE FUNCTION rag_chunks_drop_postings()
RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM rag_chunk_terms t USING gone WHERE t.chunk_id = gone.id;
  RETURN NULL;
END
$$;

CREATE TRIGGER rag_chunks_drop_postings
  AFTER DELETE ON rag_chunks
  REFERENCING OLD TABLE AS gone
  FOR EACH STATEMENT EXECUTE FUNCTION rag_chunks_drop_postings();

ALTER TABLE rag_chunks ALTER COLUMN tsv DROP EXPRESSION;
ALTER TABLE rag_chunks DROP COLUMN embedding_array;
DROP INDEX IF EXISTS rag_chunks_tsv_idx;
