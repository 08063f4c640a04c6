-- A document's mentions: entity row id, stable chunk id and count, as parallel arrays. Chunk ids
-- are resolved within the document, so a mention can never point into another document.
INSERT INTO rag_entity_mentions (entity_id, chunk_id, document_id, mentions)
SELECT m.entity_id, c.id, $1, sum(m.count)
FROM unnest($2::bigint[], $3::text[], $4::int[]) AS m(entity_id, chunk_key, count)
JOIN rag_chunks c ON c.workspace_id = $5 AND c.chunk_id = m.chunk_key AND c.document_id = $1
GROUP BY m.entity_id, c.id
ON CONFLICT (entity_id, chunk_id) DO UPDATE SET mentions = excluded.mentions
