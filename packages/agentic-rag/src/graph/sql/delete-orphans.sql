-- An entity that no chunk mentions and no relation touches is a stale fact: it goes.
DELETE FROM rag_entities e
WHERE e.id = ANY($1::bigint[])
  AND NOT EXISTS (SELECT 1 FROM rag_entity_mentions m WHERE m.entity_id = e.id)
  AND NOT EXISTS (SELECT 1 FROM rag_relations r WHERE r.from_entity_id = e.id)
  AND NOT EXISTS (SELECT 1 FROM rag_relations r WHERE r.to_entity_id = e.id)
