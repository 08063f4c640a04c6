-- Removes the facts the documents asserted: their mentions and relations, and the properties of
-- entities they defined. Returns every entity those facts touched; the caller deletes the ones
-- left with no facts at all (in a later statement, which sees these deletes).
WITH touched AS (
  SELECT entity_id AS id FROM rag_entity_mentions WHERE document_id = ANY($1::bigint[])
  UNION
  SELECT from_entity_id FROM rag_relations WHERE document_id = ANY($1::bigint[])
  UNION
  SELECT to_entity_id FROM rag_relations WHERE document_id = ANY($1::bigint[])
  UNION
  SELECT id FROM rag_entities WHERE defined_by = ANY($1::bigint[])
),
mentions AS (
  DELETE FROM rag_entity_mentions WHERE document_id = ANY($1::bigint[])
),
relations AS (
  DELETE FROM rag_relations WHERE document_id = ANY($1::bigint[])
),
definitions AS (
  UPDATE rag_entities SET properties = '{}'::jsonb, defined_by = NULL WHERE defined_by = ANY($1::bigint[])
)
SELECT id FROM touched
