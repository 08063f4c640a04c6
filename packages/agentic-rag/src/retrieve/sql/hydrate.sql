-- The display fields of the chunks a search returns.
SELECT c.id, c.chunk_id, c.text, c.token_count, c.start_offset, c.end_offset, c.section_path, c.metadata,
       d.id AS document_id, d.source_path, d.source_kind, d.title, d.url, d.metadata AS document_metadata
FROM rag_chunks c JOIN rag_documents d ON d.id = c.document_id
WHERE c.id = ANY($1::bigint[])
