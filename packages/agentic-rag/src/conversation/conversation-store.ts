import { randomUUID } from 'node:crypto';
import type { Sql } from '../db/index.js';
import { ErrorCode, RagError } from '../errors/index.js';
import type { ConversationTurn } from './follow-up.js';

export interface ConversationLimits {
  /** Turns kept per conversation (the oldest are dropped) and read back as history. */
  maxTurns: number;
  /** Seconds a conversation lives after its last turn. */
  ttlSeconds: number;
}

export interface StoredConversation {
  id: string;
  /** The earlier turns, oldest first (at most maxTurns). */
  history: ConversationTurn[];
}

/** Characters of an answer kept in a turn: what the next rewrite needs, not an archive. */
const ANSWER_CHARACTERS = 2000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const CREATE = `
INSERT INTO rag_conversations (id, workspace_id, key_id, expires_at)
VALUES ($1, $2, $3, now() + make_interval(secs => $4))`;

// Expired conversations of the workspace go when a new one starts: no sweeper to run.
const PURGE_EXPIRED = `DELETE FROM rag_conversations WHERE workspace_id = $1 AND expires_at <= now()`;

// Another workspace's conversation, another key's, an expired one and one that never existed all
// read as no row: the caller cannot tell them apart.
const FIND = `
SELECT id FROM rag_conversations
WHERE id = $1 AND workspace_id = $2 AND key_id IS NOT DISTINCT FROM $3 AND expires_at > now()`;

const HISTORY = `
SELECT question, standalone_query, answer FROM (
  SELECT turn, question, standalone_query, answer FROM rag_conversation_turns
  WHERE conversation_id = $1 AND workspace_id = $2
  ORDER BY turn DESC LIMIT $3
) latest ORDER BY turn`;

const APPEND = `
WITH bumped AS (
  UPDATE rag_conversations
  SET turns = turns + 1, updated_at = now(), expires_at = now() + make_interval(secs => $3)
  WHERE id = $1 AND workspace_id = $2
  RETURNING turns
)
INSERT INTO rag_conversation_turns (conversation_id, workspace_id, turn, question, standalone_query, answer)
SELECT $1, $2, turns, $4, $5, $6 FROM bumped
RETURNING turn`;

const TRIM = `DELETE FROM rag_conversation_turns WHERE conversation_id = $1 AND workspace_id = $2 AND turn <= $3`;

/**
 * Conversations in Postgres, per workspace (row-level security walls them like the corpus) and
 * per key: a conversation is found only by the key and workspace that started it. Bounded: the
 * last `maxTurns` turns are kept and a conversation expires `ttlSeconds` after its last turn.
 */
export class ConversationStore {
  constructor(
    private readonly sql: Sql,
    private readonly limits: ConversationLimits,
  ) {}

  /** A new, empty conversation owned by the key (null when auth is off) in the workspace. */
  async start(workspaceId: string, keyId: string | null): Promise<StoredConversation> {
    const id = randomUUID();
    await this.sql.query(PURGE_EXPIRED, [workspaceId]);
    await this.sql.query(CREATE, [id, workspaceId, keyId, this.limits.ttlSeconds]);
    return { id, history: [] };
  }

  /** The conversation with its latest turns; NOT_FOUND unless this key started it in this workspace and it has not expired. */
  async open(workspaceId: string, keyId: string | null, id: string): Promise<StoredConversation> {
    const missing = new RagError(ErrorCode.NOT_FOUND, `conversation "${id}" does not exist`);
    if (!UUID.test(id)) throw missing;
    const found = await this.sql.query(FIND, [id, workspaceId, keyId]);
    if (found.rows.length === 0) throw missing;
    const turns = await this.sql.query<{ question: string; standalone_query: string; answer: string }>(
      HISTORY,
      [id, workspaceId, this.limits.maxTurns],
    );
    return {
      id,
      history: turns.rows.map((row) => ({
        question: row.question,
        standaloneQuery: row.standalone_query,
        answer: row.answer,
      })),
    };
  }

  /** Records a turn and drops those beyond the limit; returns the turn's number (from 1). */
  async append(workspaceId: string, id: string, turn: ConversationTurn): Promise<number> {
    const result = await this.sql.query<{ turn: number }>(APPEND, [
      id,
      workspaceId,
      this.limits.ttlSeconds,
      turn.question,
      turn.standaloneQuery,
      turn.answer.slice(0, ANSWER_CHARACTERS),
    ]);
    const number = result.rows[0]?.turn;
    // Deleted between open and append (its workspace went): the answer stands, the turn has nowhere to go.
    if (number === undefined) throw new RagError(ErrorCode.NOT_FOUND, `conversation "${id}" does not exist`);
    await this.sql.query(TRIM, [id, workspaceId, number - this.limits.maxTurns]);
    return Number(number);
  }
}
