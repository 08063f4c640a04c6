-- 2026-11-25_3_row_security: a second wall between workspaces, in the database itself (issue 14).
-- Every workspace-scoped table gets row-level security with one policy: a row is visible and
-- writable only while the transaction's `app.workspace` setting names its workspace. The wall
-- holds for the application role `agentic_rag_app`, which the Sql adapters switch to inside
-- withWorkspaceScope() (`set_config('role', ...)` and `set_config('app.workspace', ...)`, both
-- transaction-local). A scoped statement that forgets its `WHERE workspace_id = $1` then sees
-- only its own workspace, and one with no workspace set sees nothing rather than everything.
--
-- RLS is enabled, not forced: the tables' owner (migrations, workers, CLIs, tests) still reads
-- across workspaces, and foreign-key cascades (which run as the owner) are unaffected.
--
-- Not walled, on purpose:
--   rag_embedding_cache, rag_stage_outputs  content-addressed caches shared by every workspace
--                                           (same text, same model: same embedding); no workspace
--   rag_api_keys, rag_audit                 keyed by a key's scope ('*' is every workspace) and
--                                           written for failed attempts too
--   rag_schema_migrations                   the ledger; the application role may not touch it

-- Roles are cluster-wide, and several databases on one server may migrate at the same moment:
-- whichever loses the race sees duplicate_object (or unique_violation on pg_authid) and moves on.
DO $$
BEGIN
  CREATE ROLE agentic_rag_app NOLOGIN;
EXCEPTION
  WHEN duplicate_object OR unique_violation THEN NULL;
END
$$;

-- The migrating role must be able to SET ROLE to it (a superuser always can).
DO $$
BEGIN
  IF current_setting('server_version_num')::integer >= 160000 THEN
    IF NOT pg_has_role(current_user, 'agentic_rag_app', 'SET') THEN
      EXECUTE format('GRANT agentic_rag_app TO %I WITH SET TRUE', current_user);
    END IF;
  ELSIF NOT pg_has_role(current_user, 'agentic_rag_app', 'MEMBER') THEN
    EXECUTE format('GRANT agentic_rag_app TO %I', current_user);
  END IF;
END
$$;

-- Everything in the schema, including tables of earlier migrations that are not walled; default
-- privileges cover what later migrations create (they run as the same role).
DO $$
DECLARE
  target_schema text := current_schema();
BEGIN
  EXECUTE format('GRANT USAGE ON SCHEMA %I TO agentic_rag_app', target_schema);
  EXECUTE format(
    'GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA %I TO agentic_rag_app', target_schema);
  EXECUTE format('GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA %I TO agentic_rag_app', target_schema);
  EXECUTE format('GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA %I TO agentic_rag_app', target_schema);
  EXECUTE format(
    'ALTER DEFAULT PRIVILEGES IN SCHEMA %I GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO agentic_rag_app',
    target_schema);
  EXECUTE format(
    'ALTER DEFAULT PRIVILEGES IN SCHEMA %I GRANT USAGE, SELECT ON SEQUENCES TO agentic_rag_app', target_schema);
  EXECUTE format(
    'ALTER DEFAULT PRIVILEGES IN SCHEMA %I GRANT EXECUTE ON FUNCTIONS TO agentic_rag_app', target_schema);
END
$$;

REVOKE ALL ON rag_schema_migrations FROM agentic_rag_app;

-- The workspaces themselves: a scope sees its own row (corpus version, counters) and no other.
ALTER TABLE rag_workspaces ENABLE ROW LEVEL SECURITY;
CREATE POLICY rag_workspace_scope ON rag_workspaces
  USING (id = current_setting('app.workspace', true))
  WITH CHECK (id = current_setting('app.workspace', true));

ALTER TABLE rag_documents ENABLE ROW LEVEL SECURITY;
CREATE POLICY rag_workspace_scope ON rag_documents
  USING (workspace_id = current_setting('app.workspace', true))
  WITH CHECK (workspace_id = current_setting('app.workspace', true));

ALTER TABLE rag_chunks ENABLE ROW LEVEL SECURITY;
CREATE POLICY rag_workspace_scope ON rag_chunks
  USING (workspace_id = current_setting('app.workspace', true))
  WITH CHECK (workspace_id = current_setting('app.workspace', true));

ALTER TABLE rag_chunk_terms ENABLE ROW LEVEL SECURITY;
CREATE POLICY rag_workspace_scope ON rag_chunk_terms
  USING (workspace_id = current_setting('app.workspace', true))
  WITH CHECK (workspace_id = current_setting('app.workspace', true));

ALTER TABLE rag_vocabulary ENABLE ROW LEVEL SECURITY;
CREATE POLICY rag_workspace_scope ON rag_vocabulary
  USING (workspace_id = current_setting('app.workspace', true))
  WITH CHECK (workspace_id = current_setting('app.workspace', true));

ALTER TABLE rag_lexicon ENABLE ROW LEVEL SECURITY;
CREATE POLICY rag_workspace_scope ON rag_lexicon
  USING (workspace_id = current_setting('app.workspace', true))
  WITH CHECK (workspace_id = current_setting('app.workspace', true));

ALTER TABLE rag_entities ENABLE ROW LEVEL SECURITY;
CREATE POLICY rag_workspace_scope ON rag_entities
  USING (workspace_id = current_setting('app.workspace', true))
  WITH CHECK (workspace_id = current_setting('app.workspace', true));

ALTER TABLE rag_relations ENABLE ROW LEVEL SECURITY;
CREATE POLICY rag_workspace_scope ON rag_relations
  USING (workspace_id = current_setting('app.workspace', true))
  WITH CHECK (workspace_id = current_setting('app.workspace', true));

-- Written by the rag_relations triggers, which run as the caller: the wall applies to them too.
ALTER TABLE rag_edges ENABLE ROW LEVEL SECURITY;
CREATE POLICY rag_workspace_scope ON rag_edges
  USING (workspace_id = current_setting('app.workspace', true))
  WITH CHECK (workspace_id = current_setting('app.workspace', true));

-- A mention had no workspace column: it belongs to its entity's workspace. A policy that looked
-- the entity up (EXISTS ...) made every read of mentions hash all of the workspace's entities
-- first, so the workspace is copied onto the mention instead: filled from the entity by a trigger
-- when the writer does not say (graph/sql/insert-mentions.sql could pass it and skip the lookup).
-- A scoped writer cannot see another workspace's entity, gets no workspace, and is refused.
ALTER TABLE rag_entity_mentions ADD COLUMN workspace_id text;
UPDATE rag_entity_mentions m SET workspace_id = e.workspace_id FROM rag_entities e WHERE e.id = m.entity_id;
ALTER TABLE rag_entity_mentions ALTER COLUMN workspace_id SET NOT NULL;

CREATE FUNCTION rag_entity_mentions_workspace() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.workspace_id IS NULL OR TG_OP = 'UPDATE' THEN
    SELECT e.workspace_id INTO NEW.workspace_id FROM rag_entities e WHERE e.id = NEW.entity_id;
  END IF;
  RETURN NEW;
END
$$;

CREATE TRIGGER rag_entity_mentions_workspace BEFORE INSERT OR UPDATE OF entity_id ON rag_entity_mentions
  FOR EACH ROW EXECUTE FUNCTION rag_entity_mentions_workspace();

-- Writes also check the chunk (qualified: inside the subquery a bare chunk_id would be the
-- chunk's own text chunk_id).
ALTER TABLE rag_entity_mentions ENABLE ROW LEVEL SECURITY;
CREATE POLICY rag_workspace_scope ON rag_entity_mentions
  USING (workspace_id = current_setting('app.workspace', true))
  WITH CHECK (
    workspace_id = current_setting('app.workspace', true)
    AND EXISTS (
      SELECT 1 FROM rag_chunks c
      WHERE c.id = rag_entity_mentions.chunk_id AND c.workspace_id = current_setting('app.workspace', true)));

-- A job without a workspace is invisible to every scope.
ALTER TABLE rag_jobs ENABLE ROW LEVEL SECURITY;
CREATE POLICY rag_workspace_scope ON rag_jobs
  USING (workspace_id = current_setting('app.workspace', true))
  WITH CHECK (workspace_id = current_setting('app.workspace', true));

ALTER TABLE rag_cache_entries ENABLE ROW LEVEL SECURITY;
CREATE POLICY rag_workspace_scope ON rag_cache_entries
  USING (workspace_id = current_setting('app.workspace', true))
  WITH CHECK (workspace_id = current_setting('app.workspace', true));

ALTER TABLE rag_ingest_stages ENABLE ROW LEVEL SECURITY;
CREATE POLICY rag_workspace_scope ON rag_ingest_stages
  USING (workspace_id = current_setting('app.workspace', true))
  WITH CHECK (workspace_id = current_setting('app.workspace', true));

ALTER TABLE rag_knowledge_checkins ENABLE ROW LEVEL SECURITY;
CREATE POLICY rag_workspace_scope ON rag_knowledge_checkins
  USING (workspace_id = current_setting('app.workspace', true))
  WITH CHECK (workspace_id = current_setting('app.workspace', true));
