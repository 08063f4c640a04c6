-- Audit of free text structured into knowledge packs ("check-ins"): the raw input, what the
-- model or the rules made of it, and how many attempts it took. A piece in the knowledge base can
-- be traced back to the words it was made from.
CREATE TABLE rag_knowledge_checkins (
  id           uuid PRIMARY KEY,
  workspace_id text NOT NULL,
  entity_id    text,
  source       text NOT NULL,
  method       text NOT NULL,
  input        text NOT NULL,
  output       jsonb NOT NULL,
  attempts     integer NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX rag_knowledge_checkins_entity_idx ON rag_knowledge_checkins (workspace_id, entity_id, created_at);
