import type { Sql } from '../db/index.js';

export interface AuditEntry {
  /** The API key that acted; null for the local operator (a CLI with the database in hand). */
  keyId: string | null;
  /** Who that is in words: `key:<id>`, `cli`, `anonymous (AGENTIC_RAG_AUTH=off)`. */
  actor: string;
  operation: string;
  workspaceId: string | null;
  /** What was written: a document id, a key id, a count of paths. */
  target: string | null;
  /** `ok`, or the error code the write ended with (FORBIDDEN included). */
  outcome: string;
}

export interface AuditRecord extends AuditEntry {
  id: number;
  at: string;
}

type AuditRow = {
  id: number;
  at: Date | string;
  key_id: string | null;
  actor: string;
  operation: string;
  workspace_id: string | null;
  target: string | null;
  outcome: string;
};

/** The append-only `rag_audit` table (a trigger refuses UPDATE and DELETE). */
export class AuditLog {
  constructor(private readonly sql: Sql) {}

  async record(entry: AuditEntry): Promise<void> {
    await this.sql.query(
      `INSERT INTO rag_audit (key_id, actor, operation, workspace_id, target, outcome)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [entry.keyId, entry.actor, entry.operation, entry.workspaceId, entry.target, entry.outcome],
    );
  }

  /**
   * Newest first; `workspaceId` narrows to one workspace's writes. `visibleTo` (a workspace
   * admin's scope) leaves out what keys of other workspaces tried there: a refused attempt is
   * recorded under the workspace it claimed, and its key id is another workspace's business.
   */
  async list(options: {
    workspaceId?: string | null;
    visibleTo?: string | null;
    first: number;
    before?: number | null;
  }): Promise<AuditRecord[]> {
    const result = await this.sql.query<AuditRow>(
      `SELECT a.* FROM rag_audit a
       WHERE ($1::text IS NULL OR a.workspace_id = $1) AND ($2::bigint IS NULL OR a.id < $2)
         AND ($4::text IS NULL OR a.key_id IS NULL OR EXISTS (
               SELECT 1 FROM rag_api_keys k WHERE k.id = a.key_id AND k.workspace_id IN ($4, '*')))
       ORDER BY a.id DESC LIMIT $3`,
      [options.workspaceId ?? null, options.before ?? null, options.first, options.visibleTo ?? null],
    );
    return result.rows.map((row) => ({
      id: Number(row.id),
      at: new Date(row.at).toISOString(),
      keyId: row.key_id,
      actor: row.actor,
      operation: row.operation,
      workspaceId: row.workspace_id,
      target: row.target,
      outcome: row.outcome,
    }));
  }
}
