-- 2026-01-10_bm25_postings: what real BM25 and typo correction need, kept up to date by ingestion
-- in the same transaction as the chunks they describe.
--   rag_chunk_terms   one posting per (chunk, lexeme) with its term frequency and the chunk's
--                     length, read from the chunk's tsvector (so lexemes are stemmed exactly as
--                     the lexical index is); scoring reads postings alone, never the chunks
--   rag_vocabulary    document frequency per lexeme and workspace (BM25 idf), with a trigram
--                     index for "did you mean" corrections
--   lexeme_count      a chunk's length in lexemes (BM25 length normalisation)
--   chunk_count, lexeme_total on the workspace: N and the average length, without a scan

ALTER TABLE rag_chunks ADD COLUMN lexeme_count integer NOT NULL DEFAULT 0;

ALTER TABLE rag_workspaces
  ADD COLUMN chunk_count  bigint NOT NULL DEFAULT 0,
  ADD COLUMN lexeme_total bigint NOT NULL DEFAULT 0;

CREATE TABLE rag_chunk_terms (
  workspace_id text    NOT NULL,
  lexeme       text    NOT NULL,
  chunk_id     bigint  NOT NULL REFERENCES rag_chunks (id) ON DELETE CASCADE,
  tf           integer NOT NULL,
  chunk_length integer NOT NULL,
  PRIMARY KEY (workspace_id, lexeme, chunk_id)
);

CREATE INDEX rag_chunk_terms_chunk_idx ON rag_chunk_terms (chunk_id);

CREATE TABLE rag_vocabulary (
  workspace_id text    NOT NULL REFERENCES rag_workspaces (id) ON DELETE CASCADE,
  lexeme       text    NOT NULL,
  df           integer NOT NULL,
  PRIMARY KEY (workspace_id, lexeme)
);

CREATE INDEX rag_vocabulary_trgm_idx ON rag_vocabulary USING gin (lexeme gin_trgm_ops);
