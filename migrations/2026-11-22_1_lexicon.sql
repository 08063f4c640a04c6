-- 2026-11-22_1_lexicon: takes the trigram index off the document-frequency table.
-- Every ingested document updates the df of hundreds of lexemes. On full pages (fillfactor 100)
-- those updates cannot be HOT, so each one also inserted the lexeme's trigram entries into the
-- GIN index again, and that statement took half of all ingest time. Typo correction only needs the set of lexemes, which changes far more rarely:
--   rag_lexicon      the workspace's lexemes, insert-only while the lexeme is in use, with the
--                    trigram index for "did you mean"
--   rag_vocabulary   df counters only; fillfactor 50 leaves room on each page for HOT updates

CREATE TABLE rag_lexicon (
  workspace_id text NOT NULL REFERENCES rag_workspaces (id) ON DELETE CASCADE,
  lexeme       text NOT NULL,
  PRIMARY KEY (workspace_id, lexeme)
);

INSERT INTO rag_lexicon (workspace_id, lexeme)
SELECT workspace_id, lexeme FROM rag_vocabulary WHERE df > 0;

CREATE INDEX rag_lexicon_trgm_idx ON rag_lexicon USING gin (lexeme gin_trgm_ops);

DROP INDEX rag_vocabulary_trgm_idx;

ALTER TABLE rag_vocabulary SET (fillfactor = 50);
