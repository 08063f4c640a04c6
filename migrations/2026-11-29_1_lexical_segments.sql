-- 2026-11-29_1_lexical_segments: the lexical index as a search engine keeps it (issue 27).
--   rag_lexical_segments    immutable segments of compressed BM25F postings (the format is in
--                           store/lexical-segments/codec.ts): one per write batch, written in the
--                           batch's transaction, so they commit, roll back, replicate and are
--                           walled by row-level security with the chunks themselves. Merges
--                           replace several segments by one in one transaction. A process caches
--                           decoded segments by id: a segment never changes, so the cache is
--                           never stale.
--   rag_lexical_tombstones  the chunks deleted since their segment was written, recorded by a
--                           trigger on every delete path (re-ingest, document delete, cascades),
--                           applied at query time and purged when a merge rewrites the segment.
--   rag_workspaces.lexical_segments
--                           true when every chunk of the workspace is in a segment; until then
--                           (a workspace written before this migration) lexical search reads the
--                           postings table, exactly as before, and backfillLexicalSegments builds
--                           the segments.

CREATE TABLE rag_lexical_segments (
  id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  workspace_id  text    NOT NULL REFERENCES rag_workspaces (id) ON DELETE CASCADE,
  chunk_count   integer NOT NULL CHECK (chunk_count >= 0),
  posting_count integer NOT NULL CHECK (posting_count >= 0),
  postings      bytea   NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX rag_lexical_segments_workspace_idx ON rag_lexical_segments (workspace_id, id);
-- Postings are already compressed; TOAST's pglz would spend time finding nothing to gain.
ALTER TABLE rag_lexical_segments ALTER COLUMN postings SET STORAGE EXTERNAL;

-- No foreign key to rag_workspaces: a workspace's deletion cascades to its chunks, whose trigger
-- runs once the workspace row is gone. Its segments cascade; the chunk trigger writes no
-- tombstone for a workspace that is gone, and the workspace's trigger deletes the earlier ones.
CREATE TABLE rag_lexical_tombstones (
  workspace_id text   NOT NULL,
  chunk_id     bigint NOT NULL,
  PRIMARY KEY (workspace_id, chunk_id)
);

ALTER TABLE rag_workspaces ADD COLUMN lexical_segments boolean NOT NULL DEFAULT true;
UPDATE rag_workspaces w SET lexical_segments = false
WHERE EXISTS (SELECT 1 FROM rag_chunks c WHERE c.workspace_id = w.id);

CREATE FUNCTION rag_tombstone_chunks() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO rag_lexical_tombstones (workspace_id, chunk_id)
  SELECT gone.workspace_id, gone.id FROM gone
  WHERE EXISTS (SELECT 1 FROM rag_workspaces w WHERE w.id = gone.workspace_id)
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END
$$;

CREATE TRIGGER rag_chunks_tombstones
AFTER DELETE ON rag_chunks
REFERENCING OLD TABLE AS gone
FOR EACH STATEMENT EXECUTE FUNCTION rag_tombstone_chunks();

CREATE FUNCTION rag_forget_workspace_tombstones() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM rag_lexical_tombstones t USING gone WHERE t.workspace_id = gone.id;
  RETURN NULL;
END
$$;

CREATE TRIGGER rag_workspaces_tombstones
AFTER DELETE ON rag_workspaces
REFERENCING OLD TABLE AS gone
FOR EACH STATEMENT EXECUTE FUNCTION rag_forget_workspace_tombstones();

-- Walled like every workspace-scoped table (2026-11-25_3_row_security.sql).
ALTER TABLE rag_lexical_segments ENABLE ROW LEVEL SECURITY;
CREATE POLICY rag_workspace_scope ON rag_lexical_segments
  USING (workspace_id = current_setting('app.workspace', true))
  WITH CHECK (workspace_id = current_setting('app.workspace', true));

ALTER TABLE rag_lexical_tombstones ENABLE ROW LEVEL SECURITY;
CREATE POLICY rag_workspace_scope ON rag_lexical_tombstones
  USING (workspace_id = current_setting('app.workspace', true))
  WITH CHECK (workspace_id = current_setting('app.workspace', true));
