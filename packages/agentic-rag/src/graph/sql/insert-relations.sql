-- A document's relations, as parallel arrays of entity row ids; duplicates within the document
-- add up.
INSERT INTO rag_relations (workspace_id, from_entity_id, to_entity_id, type, weight, document_id)
SELECT $1, r.from_id, r.to_id, r.type, sum(r.weight), $2
FROM unnest($3::bigint[], $4::bigint[], $5::text[], $6::float8[]) AS r(from_id, to_id, type, weight)
WHERE r.from_id <> r.to_id
GROUP BY r.from_id, r.to_id, r.type
