SELECT c.id, c.chunk_id, c.text, c.start_offset, c.end_offset, c.section_path, c.metadata,
       d.source_path, d.title, d.url
FROM rag_chunks c JOIN rag_documents d ON d.id = c.document_id
WHERE c.id = ANY($1::bigint[])
