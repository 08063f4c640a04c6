-- One breadth-first level: the edges that leave ($4 <> 'in') or enter ($4 <> 'out') the frontier
-- (entity keys as parallel type / normalized-name arrays), optionally of the types $5, with their
-- weights summed over documents (rag_edges). At most $6 edges per frontier entity and side, the
-- strongest first (NULL: all of them); `truncated` says a side was cut there, and `least` is then
-- the bound on the weight of every edge left out.
WITH frontier AS (
  SELECT e.id, k.type || ':' || k.normalized_name AS key
  FROM unnest($2::text[], $3::text[]) AS k(type, normalized_name)
  JOIN rag_entities e ON e.workspace_id = $1 AND e.type = k.type AND e.normalized_name = k.normalized_name
),
walked AS (
  SELECT f.key AS near, true AS outgoing, x.other, x.type, x.weight,
         count(*) OVER (PARTITION BY f.key) AS listed, min(x.weight) OVER (PARTITION BY f.key) AS least
  FROM frontier f
  CROSS JOIN LATERAL (
    SELECT r.to_entity_id AS other, r.type, r.weight FROM rag_edges r
    WHERE r.from_entity_id = f.id AND ($5::text[] IS NULL OR r.type = ANY($5::text[]))
    ORDER BY r.weight DESC LIMIT $6
  ) x
  WHERE $4 <> 'in'
  UNION ALL
  SELECT f.key, false, x.other, x.type, x.weight,
         count(*) OVER (PARTITION BY f.key), min(x.weight) OVER (PARTITION BY f.key)
  FROM frontier f
  CROSS JOIN LATERAL (
    SELECT r.from_entity_id AS other, r.type, r.weight FROM rag_edges r
    WHERE r.to_entity_id = f.id AND ($5::text[] IS NULL OR r.type = ANY($5::text[]))
    ORDER BY r.weight DESC LIMIT $6
  ) x
  WHERE $4 <> 'out'
)
SELECT w.near,
       CASE WHEN w.outgoing THEN w.near ELSE o.type || ':' || o.normalized_name END AS from_id,
       CASE WHEN w.outgoing THEN o.type || ':' || o.normalized_name ELSE w.near END AS to_id,
       w.type,
       w.weight,
       w.listed = $6 AS truncated,
       w.least
FROM walked w
JOIN rag_entities o ON o.id = w.other
