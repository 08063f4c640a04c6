-- 2026-11-24_1_lexical_fields: BM25F-style fields for the lexical channel.
-- A posting used to count a lexeme's occurrences in the chunk's heading trail and body as one
-- number, and the document's title was not indexed at all (a BEIR record's title, a manual page's
-- name, an API operation's summary line). Postings now keep one term frequency per field, so the
-- query can weigh a title or heading match above a body match (BM25F's weighted term frequency,
-- with the body's length normalisation), and the weights stay settings rather than index state.
--   tf           occurrences in the body (the chunk text)
--   tf_heading   occurrences in the section path (the heading trail)
--   tf_title     occurrences in the document's title
-- rag_chunk_fields() is the one definition of a chunk's lexemes: postings and document
-- frequencies are both read through it, so a title-only lexeme has a df and the query finds it.

CREATE FUNCTION rag_chunk_fields(title text, tsv tsvector)
RETURNS TABLE (lexeme text, tf integer, tf_heading integer, tf_title integer)
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT f.lexeme, sum(f.body)::integer, sum(f.heading)::integer, sum(f.title)::integer
  FROM (
    -- The chunk's tsvector weighs the section path A and the text B.
    SELECT t.lexeme,
           coalesce((SELECT count(*) FROM unnest(t.weights) AS w(label) WHERE w.label <> 'A'), 1) AS body,
           coalesce((SELECT count(*) FROM unnest(t.weights) AS w(label) WHERE w.label = 'A'), 0) AS heading,
           0 AS title
    FROM unnest(tsv) AS t
    UNION ALL
    SELECT t.lexeme, 0, 0, coalesce(cardinality(t.positions), 1)
    FROM unnest(to_tsvector('english', coalesce(title, ''))) AS t
  ) AS f
  GROUP BY f.lexeme
$$;

ALTER TABLE rag_chunk_terms
  ADD COLUMN tf_heading integer NOT NULL DEFAULT 0,
  ADD COLUMN tf_title   integer NOT NULL DEFAULT 0;

-- The covering key carries every field's frequency, so scoring stays an index-only scan.
ALTER TABLE rag_chunk_terms DROP CONSTRAINT rag_chunk_terms_pkey;

-- Every stored chunk is indexed again under the new definition, and the document frequencies and
-- lexicon follow (title lexemes are new to both). Lengths (lexeme_count) keep their meaning:
-- heading and body lexemes, as before.
TRUNCATE rag_chunk_terms;
INSERT INTO rag_chunk_terms (workspace_id, lexeme, chunk_id, tf, tf_heading, tf_title, chunk_length)
SELECT c.workspace_id, f.lexeme, c.id, f.tf, f.tf_heading, f.tf_title, c.lexeme_count
FROM rag_chunks c
JOIN rag_documents d ON d.id = c.document_id
CROSS JOIN LATERAL rag_chunk_fields(d.title, c.tsv) AS f;

ALTER TABLE rag_chunk_terms
  ADD CONSTRAINT rag_chunk_terms_pkey PRIMARY KEY (workspace_id, lexeme, chunk_id)
  INCLUDE (tf, tf_heading, tf_title, chunk_length);

TRUNCATE rag_vocabulary;
INSERT INTO rag_vocabulary (workspace_id, lexeme, df)
SELECT workspace_id, lexeme, count(*) FROM rag_chunk_terms GROUP BY workspace_id, lexeme;

INSERT INTO rag_lexicon (workspace_id, lexeme)
SELECT workspace_id, lexeme FROM rag_vocabulary
ON CONFLICT DO NOTHING;
