-- Embeddings already paid for, by model and text: a retried or resumed ingest job (or a re-ingest
-- of a file whose unchanged paragraphs moved) asks the embedding server only for what is new.
CREATE TABLE rag_embedding_cache (
  model      text NOT NULL,
  text_hash  text NOT NULL,
  embedding  real[] NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (model, text_hash)
);

-- How far each document's latest ingest got: parsed, chunked, embedded, graph-extracted, stored.
CREATE TABLE rag_ingest_stages (
  -- No foreign key: a first document reports its early stages before its workspace row exists.
  workspace_id text NOT NULL,
  source_path  text NOT NULL,
  content_hash text NOT NULL,
  stage        text NOT NULL,
  job_id       text,
  updated_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (workspace_id, source_path)
);
