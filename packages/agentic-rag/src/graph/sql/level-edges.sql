-- One breadth-first level: the edges that leave ($4 <> 'in') or enter ($4 <> 'out') the frontier
-- (entity keys as parallel type / normalized-name arrays), optionally of the types $5, with
-- weights summed over the documents that assert them.
WITH frontier AS (
  SELECT e.id
  FROM unnest($2::text[], $3::text[]) AS k(type, normalized_name)
  JOIN rag_entities e ON e.workspace_id = $1 AND e.type = k.type AND e.normalized_name = k.normalized_name
),
hits AS (
  SELECT r.id FROM frontier JOIN rag_relations r ON r.from_entity_id = frontier.id
  WHERE $4 <> 'in' AND ($5::text[] IS NULL OR r.type = ANY($5::text[]))
  UNION
  SELECT r.id FROM frontier JOIN rag_relations r ON r.to_entity_id = frontier.id
  WHERE $4 <> 'out' AND ($5::text[] IS NULL OR r.type = ANY($5::text[]))
)
SELECT f.type || ':' || f.normalized_name AS from_id,
       t.type || ':' || t.normalized_name AS to_id,
       r.type,
       sum(r.weight)::float8 AS weight
FROM hits
JOIN rag_relations r ON r.id = hits.id
JOIN rag_entities f ON f.id = r.from_entity_id
JOIN rag_entities t ON t.id = r.to_entity_id
GROUP BY 1, 2, 3
