-- 2026-11-27_2_lexical_ranges: block-max summaries of the BM25 postings (issue 16), so lexical
-- search reads the postings of the few chunk-id ranges that can still reach the top k instead of
-- every posting of every query term.
--   rag_lexical_ranges      per workspace, lexeme and range of `range_size` chunk ids (range_no =
--                           chunk_id / range_size): the largest tf, tf_heading and tf_title and the
--                           shortest chunk among the lexeme's postings in that range. BM25F grows
--                           with every tf and shrinks with the length, so these bound the term's
--                           score in the range for any k1, b, idf, average length and non-negative
--                           field weights: a range's bound is the sum over the query's terms.
--   rag_lexical_watermarks  per workspace: ranges below `summarised_below` (a multiple of
--                           range_size) are summarised; chunks at or above it are the tail, which
--                           the query scores exactly.
-- Chunks are never updated in place (a re-ingest deletes them and inserts new ids, above the
-- watermark), so a summary stays a valid bound forever: deletions only loosen it. Both tables are
-- derived from rag_chunk_terms and can be rebuilt at any time (rebuildLexicalSummaries); the
-- postings stay the source of truth. With no watermark the query scores every posting, as before.

CREATE TABLE rag_lexical_ranges (
  workspace_id   text    NOT NULL REFERENCES rag_workspaces (id) ON DELETE CASCADE,
  lexeme         text    NOT NULL,
  range_no       bigint  NOT NULL,
  max_tf         integer NOT NULL,
  max_tf_heading integer NOT NULL,
  max_tf_title   integer NOT NULL,
  min_length     integer NOT NULL,
  PRIMARY KEY (workspace_id, lexeme, range_no) INCLUDE (max_tf, max_tf_heading, max_tf_title, min_length)
);

CREATE TABLE rag_lexical_watermarks (
  workspace_id     text    PRIMARY KEY REFERENCES rag_workspaces (id) ON DELETE CASCADE,
  range_size       integer NOT NULL CHECK (range_size > 0),
  summarised_below bigint  NOT NULL CHECK (summarised_below >= 0)
);

-- Walled like every workspace-scoped table (2026-11-25_3_row_security.sql).
ALTER TABLE rag_lexical_ranges ENABLE ROW LEVEL SECURITY;
CREATE POLICY rag_workspace_scope ON rag_lexical_ranges
  USING (workspace_id = current_setting('app.workspace', true))
  WITH CHECK (workspace_id = current_setting('app.workspace', true));

ALTER TABLE rag_lexical_watermarks ENABLE ROW LEVEL SECURITY;
CREATE POLICY rag_workspace_scope ON rag_lexical_watermarks
  USING (workspace_id = current_setting('app.workspace', true))
  WITH CHECK (workspace_id = current_setting('app.workspace', true));

-- Backfill: every range whose ids are all allocated (its last id is at most the largest chunk id;
-- migrations run before writers start) is summarised, with ranges of 128 chunk ids.
INSERT INTO rag_lexical_watermarks (workspace_id, range_size, summarised_below)
SELECT w.id, 128, ((m.max_id + 1) / 128) * 128
FROM rag_workspaces w
CROSS JOIN (SELECT coalesce(max(id), 0) AS max_id FROM rag_chunks) AS m;

INSERT INTO rag_lexical_ranges (workspace_id, lexeme, range_no, max_tf, max_tf_heading, max_tf_title, min_length)
SELECT p.workspace_id, p.lexeme, p.chunk_id / 128, max(p.tf), max(p.tf_heading), max(p.tf_title), min(p.chunk_length)
FROM rag_chunk_terms p
JOIN rag_lexical_watermarks w ON w.workspace_id = p.workspace_id
WHERE p.chunk_id < w.summarised_below
GROUP BY p.workspace_id, p.lexeme, p.chunk_id / 128;
