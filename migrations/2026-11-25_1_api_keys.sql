-- API keys (issue 14): nobody reads or writes without a key that allows it. A key is
-- `ar_<id>_<secret>`; only an scrypt hash of the secret is kept (key_hash holds the parameters,
-- salt and hash), so the table can leak without leaking a key. Not workspace-scoped: a key's
-- scope is one workspace id or '*' for all, and deleting a workspace leaves its keys revocable.
CREATE TABLE rag_api_keys (
  id           text PRIMARY KEY,
  key_hash     text NOT NULL,
  role         text NOT NULL CHECK (role IN ('reader', 'writer', 'admin')),
  workspace_id text NOT NULL,
  label        text,
  created_by   text,
  created_at   timestamptz NOT NULL DEFAULT now(),
  revoked_at   timestamptz,
  last_used_at timestamptz
);

-- activeCount() and the admin bootstrap ask "is there any live key?" on every start.
CREATE INDEX rag_api_keys_active_idx ON rag_api_keys (created_at) WHERE revoked_at IS NULL;
