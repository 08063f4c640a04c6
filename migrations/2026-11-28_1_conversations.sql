-- 2026-11-28_1_conversations: conversations for ragAnswer's follow-up questions. A conversation
-- belongs to the workspace and the API key that started it (key_id is null when auth is off); its
-- turns keep what the rewrite stage needs to make the next question stand alone (the question,
-- its standalone form, the answer). Both tables are walled by workspace like every other
-- workspace table (see 2026-11-25_3_row_security.sql); a workspace's deletion takes them along.
-- Bounded by the application: the last AGENTIC_RAG_CONVERSATION_TURNS turns are kept, and a
-- conversation idle for AGENTIC_RAG_CONVERSATION_TTL_SECONDS has expired (expires_at).

CREATE TABLE rag_conversations (
  id           uuid PRIMARY KEY,
  workspace_id text NOT NULL REFERENCES rag_workspaces (id) ON DELETE CASCADE,
  key_id       text,
  -- The number of the latest turn (turns are numbered from 1; older ones are trimmed).
  turns        integer NOT NULL DEFAULT 0,
  created_at   timestamptz NOT NULL DEFAULT now(),
  updated_at   timestamptz NOT NULL DEFAULT now(),
  expires_at   timestamptz NOT NULL
);
CREATE INDEX rag_conversations_expiry ON rag_conversations (workspace_id, expires_at);

CREATE TABLE rag_conversation_turns (
  conversation_id  uuid NOT NULL REFERENCES rag_conversations (id) ON DELETE CASCADE,
  workspace_id     text NOT NULL,
  turn             integer NOT NULL,
  question         text NOT NULL,
  standalone_query text NOT NULL,
  answer           text NOT NULL,
  created_at       timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (conversation_id, turn)
);

ALTER TABLE rag_conversations ENABLE ROW LEVEL SECURITY;
CREATE POLICY rag_workspace_scope ON rag_conversations
  USING (workspace_id = current_setting('app.workspace', true))
  WITH CHECK (workspace_id = current_setting('app.workspace', true));

ALTER TABLE rag_conversation_turns ENABLE ROW LEVEL SECURITY;
CREATE POLICY rag_workspace_scope ON rag_conversation_turns
  USING (workspace_id = current_setting('app.workspace', true))
  WITH CHECK (workspace_id = current_setting('app.workspace', true));
