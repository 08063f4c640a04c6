-- Inserts a new document or replaces a changed one; returns no row when the stored document
-- already has this content hash and pipeline fingerprint (a concurrent run wrote it first).
-- xmax = 0 only on a freshly inserted row, which tells "added" from "updated".
INSERT INTO rag_documents AS d (
  workspace_id, source_path, source_file, source_root, source_kind, title, url, content,
  content_hash, pipeline_fingerprint, token_count, corpus_version, metadata
)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 0, $12::jsonb)
ON CONFLICT (workspace_id, source_path) DO UPDATE SET
  source_file = excluded.source_file,
  source_root = excluded.source_root,
  source_kind = excluded.source_kind,
  title = excluded.title,
  url = excluded.url,
  content = excluded.content,
  content_hash = excluded.content_hash,
  pipeline_fingerprint = excluded.pipeline_fingerprint,
  token_count = excluded.token_count,
  metadata = excluded.metadata,
  updated_at = now()
WHERE d.content_hash IS DISTINCT FROM excluded.content_hash
   OR d.pipeline_fingerprint IS DISTINCT FROM excluded.pipeline_fingerprint
RETURNING d.id, (d.xmax = 0) AS inserted
