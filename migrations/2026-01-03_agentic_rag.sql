-- 2026-01-03_agentic_rag: the base schema.
-- Workspaces with their corpus version (bumped by every change, so cached answers can be keyed
-- on it), documents and their chunks (pgvector embedding plus a real[] copy, character offsets
-- into the stored document text, a generated tsvector), job bookkeeping, the answer cache, and
-- the graph tables used when no Neo4j is configured. Runs unchanged on Postgres and PGlite.

CREATE EXTENSION IF NOT EXISTS vector;
CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE TABLE rag_workspaces (
  id             text PRIMARY KEY,
  corpus_version bigint NOT NULL DEFAULT 0,
  created_at     timestamptz NOT NULL DEFAULT now(),
  updated_at     timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE rag_documents (
  id                   bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  workspace_id         text NOT NULL REFERENCES rag_workspaces (id) ON DELETE CASCADE,
  -- Stable identity within the workspace: the ingested folder's name and the file's path below it
  -- plus '#<record id>' for documents that are records inside a .json/.jsonl file.
  source_path          text NOT NULL,
  -- The file the document came from; several record documents share one file.
  source_file          text NOT NULL,
  -- Name of the folder an ingest run walked (the first segment of source_path); the scope of --prune.
  source_root          text NOT NULL DEFAULT '',
  source_kind          text NOT NULL,
  title                text,
  url                  text,
  -- The normalised text that chunk offsets index into.
  content              text NOT NULL,
  content_hash         text NOT NULL,
  -- Hash of the chunker settings and embedding model: a change re-chunks unchanged files.
  pipeline_fingerprint text NOT NULL,
  token_count          integer NOT NULL,
  corpus_version       bigint NOT NULL,
  metadata             jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at           timestamptz NOT NULL DEFAULT now(),
  updated_at           timestamptz NOT NULL DEFAULT now(),
  UNIQUE (workspace_id, source_path)
);

CREATE INDEX rag_documents_root_idx ON rag_documents (workspace_id, source_root);

CREATE TABLE rag_chunks (
  id                   bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  document_id          bigint NOT NULL REFERENCES rag_documents (id) ON DELETE CASCADE,
  -- Denormalised so every retrieval query can filter by workspace without a join.
  workspace_id         text NOT NULL,
  -- Stable across re-ingests of the same text: citations keep pointing at the same chunk.
  chunk_id             text NOT NULL,
  chunk_index          integer NOT NULL,
  text                 text NOT NULL,
  token_count          integer NOT NULL,
  start_offset         integer NOT NULL,
  end_offset           integer NOT NULL,
  -- Heading trail, e.g. 'Getting started > Create a location'.
  section_path         text NOT NULL DEFAULT '',
  metadata             jsonb NOT NULL DEFAULT '{}'::jsonb,
  embedding            vector(768),
  -- The same vector as a plain array, for consumers without pgvector (exports, Neo4j sync).
  embedding_array      real[],
  embedding_model      text,
  embedding_dimensions integer,
  tsv                  tsvector GENERATED ALWAYS AS (
                         setweight(to_tsvector('english', section_path), 'A') ||
                         setweight(to_tsvector('english', text), 'B')
                       ) STORED,
  created_at           timestamptz NOT NULL DEFAULT now(),
  UNIQUE (document_id, chunk_index),
  UNIQUE (workspace_id, chunk_id),
  CHECK (start_offset >= 0 AND end_offset >= start_offset)
);

CREATE INDEX rag_chunks_workspace_idx ON rag_chunks (workspace_id);
CREATE INDEX rag_chunks_tsv_idx ON rag_chunks USING gin (tsv);
CREATE INDEX rag_chunks_embedding_idx ON rag_chunks USING hnsw (embedding vector_cosine_ops);

CREATE TABLE rag_jobs (
  id              text PRIMARY KEY,
  workspace_id    text,
  kind            text NOT NULL,
  idempotency_key text NOT NULL UNIQUE,
  status          text NOT NULL CHECK (status IN ('queued', 'active', 'completed', 'failed', 'dead')),
  attempts        integer NOT NULL DEFAULT 0,
  progress        real NOT NULL DEFAULT 0,
  payload         jsonb NOT NULL DEFAULT '{}'::jsonb,
  result          jsonb,
  error           text,
  trace_id        text,
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now(),
  started_at      timestamptz,
  finished_at     timestamptz
);

CREATE INDEX rag_jobs_status_idx ON rag_jobs (status, updated_at);

CREATE TABLE rag_cache_entries (
  key            text PRIMARY KEY,
  workspace_id   text NOT NULL,
  corpus_version bigint NOT NULL,
  answer         jsonb NOT NULL,
  created_at     timestamptz NOT NULL DEFAULT now(),
  expires_at     timestamptz NOT NULL
);

CREATE INDEX rag_cache_entries_expiry_idx ON rag_cache_entries (expires_at);

CREATE TABLE rag_entities (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  workspace_id    text NOT NULL REFERENCES rag_workspaces (id) ON DELETE CASCADE,
  type            text NOT NULL,
  name            text NOT NULL,
  -- Resolution key: one node per thing however it is written.
  normalized_name text NOT NULL,
  properties      jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at      timestamptz NOT NULL DEFAULT now(),
  UNIQUE (workspace_id, type, normalized_name)
);

-- Which chunks mention an entity; deleting a document or chunk removes its mentions.
CREATE TABLE rag_entity_mentions (
  entity_id   bigint NOT NULL REFERENCES rag_entities (id) ON DELETE CASCADE,
  chunk_id    bigint NOT NULL REFERENCES rag_chunks (id) ON DELETE CASCADE,
  document_id bigint NOT NULL REFERENCES rag_documents (id) ON DELETE CASCADE,
  mentions    integer NOT NULL DEFAULT 1,
  PRIMARY KEY (entity_id, chunk_id)
);

CREATE INDEX rag_entity_mentions_document_idx ON rag_entity_mentions (document_id);

-- An edge asserted by one document; the graph's weight for a pair is the sum over documents, so
-- removing a document removes exactly its contribution.
CREATE TABLE rag_relations (
  id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  workspace_id   text NOT NULL REFERENCES rag_workspaces (id) ON DELETE CASCADE,
  from_entity_id bigint NOT NULL REFERENCES rag_entities (id) ON DELETE CASCADE,
  to_entity_id   bigint NOT NULL REFERENCES rag_entities (id) ON DELETE CASCADE,
  type           text NOT NULL,
  weight         real NOT NULL DEFAULT 1,
  document_id    bigint REFERENCES rag_documents (id) ON DELETE CASCADE,
  properties     jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at     timestamptz NOT NULL DEFAULT now()
);

CREATE UNIQUE INDEX rag_relations_identity_idx
  ON rag_relations (workspace_id, from_entity_id, to_entity_id, type, coalesce(document_id, 0));
CREATE INDEX rag_relations_to_idx ON rag_relations (to_entity_id);
