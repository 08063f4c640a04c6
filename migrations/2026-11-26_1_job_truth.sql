-- 2026-11-26_1_job_truth: rag_jobs is the source of truth of the data plane; Redis only carries
-- the work (issue 15). Everything needed to run a job again after Redis lost it lives here.

-- What a workspace intends each document (a file of a folder, or an inline id) to be. The
-- generation moves whenever the intent changes: a delete, or an ingest of other bytes. It is part
-- of a queued job's idempotency key, so a delete followed by the same ingest is a new job, and a
-- job of an older generation stores nothing when it finally runs (the write checks it in its own
-- transaction, under the same row lock a delete takes).
CREATE TABLE rag_document_intents (
  workspace_id text NOT NULL,
  document     text NOT NULL,
  generation   integer NOT NULL DEFAULT 0,
  -- The bytes last asked for; NULL once deleted.
  content_hash text,
  updated_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (workspace_id, document)
);

ALTER TABLE rag_document_intents ENABLE ROW LEVEL SECURITY;
CREATE POLICY rag_workspace_scope ON rag_document_intents
  USING (workspace_id = current_setting('app.workspace', true))
  WITH CHECK (workspace_id = current_setting('app.workspace', true));

-- An inline document's (already screened) text, kept until its job finishes: with it the
-- reconciler can enqueue the job again when Redis has lost it. Cleared on completion.
ALTER TABLE rag_jobs ADD COLUMN inline_content text;

-- The reconciler's scan: jobs not yet finished, oldest first.
CREATE INDEX rag_jobs_unfinished_idx ON rag_jobs (updated_at) WHERE status IN ('queued', 'active');
