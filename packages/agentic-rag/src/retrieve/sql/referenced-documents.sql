-- The chunks of referenced documents (by source path, in the order asked), each with its
-- document's own ref_ids for the next level, and how many documents reference it (fan_in: a
-- shared Error schema is referenced by every operation and tells little about any of them).
SELECT c.id, c.chunk_id, c.chunk_index, c.text, c.token_count, c.start_offset, c.end_offset, c.section_path, c.metadata,
       d.id AS document_id, d.source_path, d.source_kind, d.title, d.url, d.metadata -> 'ref_ids' AS ref_ids,
       CASE WHEN jsonb_typeof(d.metadata -> 'referenced_by') = 'array'
            THEN jsonb_array_length(d.metadata -> 'referenced_by') ELSE 0 END AS fan_in
FROM unnest($2::text[]) WITH ORDINALITY AS t(source_path, position)
JOIN rag_documents d ON d.workspace_id = $1 AND d.source_path = t.source_path
JOIN rag_chunks c ON c.document_id = d.id
ORDER BY t.position, c.chunk_index
