-- Upserts a document's entities (parallel arrays) in key order, so concurrent writers lock rows
-- in the same order. A defining document sets the display name and properties; any document
-- adds its aliases. Returns the row id per key.
WITH input AS (
  SELECT * FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::bool[])
    AS t(type, normalized_name, name, aliases, properties, defines)
  ORDER BY type, normalized_name
)
INSERT INTO rag_entities AS e (workspace_id, type, normalized_name, name, aliases, properties, defined_by)
SELECT $1, type, normalized_name, name,
       ARRAY(SELECT jsonb_array_elements_text(aliases::jsonb)),
       CASE WHEN defines THEN properties::jsonb ELSE '{}'::jsonb END,
       CASE WHEN defines THEN $8::bigint END
FROM input
ON CONFLICT (workspace_id, type, normalized_name) DO UPDATE SET
  name = CASE WHEN excluded.defined_by IS NOT NULL THEN excluded.name ELSE e.name END,
  properties = CASE WHEN excluded.defined_by IS NOT NULL THEN excluded.properties ELSE e.properties END,
  defined_by = coalesce(excluded.defined_by, e.defined_by),
  aliases = ARRAY(SELECT DISTINCT a FROM unnest(e.aliases || excluded.aliases) AS a ORDER BY a)
RETURNING e.id, e.type, e.normalized_name
