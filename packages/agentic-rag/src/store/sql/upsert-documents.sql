-- Inserts new documents or replaces changed ones, a batch at a time: parallel arrays unnested into
-- rows, in source-path order so that concurrent writers lock rows in one order. A stored document
-- that already has the content hash and pipeline fingerprint returns no row (a concurrent run
-- wrote it first). xmax = 0 only on a freshly inserted row, which tells "added" from "updated".
INSERT INTO rag_documents AS d (
  workspace_id, source_path, source_file, source_root, source_kind, title, url, content,
  content_hash, pipeline_fingerprint, token_count, corpus_version, metadata
)
SELECT $1, t.source_path, t.source_file, t.source_root, t.source_kind, t.title, t.url, t.content,
       t.content_hash, t.pipeline_fingerprint, t.token_count, 0, t.metadata::jsonb
FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[],
            $9::text[], $10::text[], $11::int[], $12::text[])
  AS t(source_path, source_file, source_root, source_kind, title, url, content, content_hash,
       pipeline_fingerprint, token_count, metadata)
ORDER BY t.source_path
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
RETURNING d.id, d.source_path, (d.xmax = 0) AS inserted
