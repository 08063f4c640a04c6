-- The graph's edges with their weights summed over the documents that assert them, kept in step
-- with rag_relations by triggers. Neighbourhood expansion reads an entity's strongest edges from
-- here in weight order and stops after the few it can use, instead of reading and summing every
-- per-document row of a hub entity (thousands of rows for a product name).
--
-- Triggers rather than explicit writes: a relation row can also disappear through a cascade (a
-- document or an entity deleted), and a weight that outlives its relation is a stale fact.
CREATE TABLE rag_edges (
  workspace_id   text NOT NULL REFERENCES rag_workspaces (id) ON DELETE CASCADE,
  from_entity_id bigint NOT NULL REFERENCES rag_entities (id) ON DELETE CASCADE,
  to_entity_id   bigint NOT NULL REFERENCES rag_entities (id) ON DELETE CASCADE,
  type           text NOT NULL,
  weight         float8 NOT NULL,
  -- Relation rows behind the edge: it goes when the last one does (a float sum cannot say so).
  sources        integer NOT NULL,
  PRIMARY KEY (from_entity_id, to_entity_id, type)
);

CREATE INDEX rag_edges_from_weight_idx ON rag_edges (from_entity_id, weight DESC) INCLUDE (to_entity_id, type);
CREATE INDEX rag_edges_to_weight_idx ON rag_edges (to_entity_id, weight DESC) INCLUDE (from_entity_id, type);

CREATE FUNCTION rag_edges_follow_relations() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    WITH gone AS (
      SELECT from_entity_id, to_entity_id, type, sum(weight) AS weight, count(*) AS sources
      FROM removed_relations GROUP BY 1, 2, 3
    )
    UPDATE rag_edges e
    SET weight = e.weight - gone.weight, sources = e.sources - gone.sources
    FROM gone
    WHERE e.from_entity_id = gone.from_entity_id AND e.to_entity_id = gone.to_entity_id AND e.type = gone.type;
    DELETE FROM rag_edges e
    USING (SELECT DISTINCT from_entity_id, to_entity_id, type FROM removed_relations) gone
    WHERE e.from_entity_id = gone.from_entity_id AND e.to_entity_id = gone.to_entity_id
      AND e.type = gone.type AND e.sources <= 0;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO rag_edges (workspace_id, from_entity_id, to_entity_id, type, weight, sources)
    SELECT workspace_id, from_entity_id, to_entity_id, type, sum(weight), count(*)
    FROM added_relations GROUP BY 1, 2, 3, 4
    ON CONFLICT (from_entity_id, to_entity_id, type) DO UPDATE
      SET weight = rag_edges.weight + excluded.weight, sources = rag_edges.sources + excluded.sources;
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER rag_relations_inserted AFTER INSERT ON rag_relations
  REFERENCING NEW TABLE AS added_relations
  FOR EACH STATEMENT EXECUTE FUNCTION rag_edges_follow_relations();
CREATE TRIGGER rag_relations_deleted AFTER DELETE ON rag_relations
  REFERENCING OLD TABLE AS removed_relations
  FOR EACH STATEMENT EXECUTE FUNCTION rag_edges_follow_relations();
CREATE TRIGGER rag_relations_updated AFTER UPDATE ON rag_relations
  REFERENCING OLD TABLE AS removed_relations NEW TABLE AS added_relations
  FOR EACH STATEMENT EXECUTE FUNCTION rag_edges_follow_relations();

INSERT INTO rag_edges (workspace_id, from_entity_id, to_entity_id, type, weight, sources)
SELECT workspace_id, from_entity_id, to_entity_id, type, sum(weight), count(*)
FROM rag_relations GROUP BY 1, 2, 3, 4;
