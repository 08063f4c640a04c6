-- Who changed what: one row per write attempted through the application service (ingest,
-- delete, refresh, resume, keys, dead letters), allowed or not. Append-only: the trigger refuses
-- UPDATE and DELETE for everyone, so a stolen admin key cannot erase its own tracks.
CREATE TABLE rag_audit (
  id           bigserial PRIMARY KEY,
  at           timestamptz NOT NULL DEFAULT now(),
  key_id       text,
  actor        text NOT NULL,
  operation    text NOT NULL,
  workspace_id text,
  target       text,
  outcome      text NOT NULL
);
CREATE INDEX rag_audit_workspace_at ON rag_audit (workspace_id, at DESC);

CREATE FUNCTION rag_audit_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'rag_audit is append-only';
END;
$$;
CREATE TRIGGER rag_audit_append_only BEFORE UPDATE OR DELETE ON rag_audit
  FOR EACH ROW EXECUTE FUNCTION rag_audit_append_only();
