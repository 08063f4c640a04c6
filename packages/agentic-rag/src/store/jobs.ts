import { randomUUID } from 'node:crypto';
import type { Sql } from '../db/index.js';

export type JobStatus = 'queued' | 'active' | 'completed' | 'failed' | 'dead';

export interface JobRecord {
  id: string;
  workspaceId: string | null;
  kind: string;
  status: JobStatus;
  attempts: number;
  progress: number;
  result: unknown;
  error: string | null;
  traceId: string | null;
  createdAt: string;
  finishedAt: string | null;
}

type JobRow = {
  id: string;
  workspace_id: string | null;
  kind: string;
  status: JobStatus;
  attempts: number;
  progress: number;
  result: unknown;
  error: string | null;
  trace_id: string | null;
  created_at: Date | string;
  finished_at: Date | string | null;
};

/**
 * `rag_jobs` bookkeeping: what was asked, how it went. Work run inline (no queue configured)
 * is recorded here too, so `job(id)` answers the same way whichever plane did the work.
 */
export class JobStore {
  constructor(private readonly sql: Sql) {}

  async start(job: {
    kind: string;
    workspaceId: string;
    payload: unknown;
    traceId?: string;
  }): Promise<string> {
    const id = randomUUID();
    await this.sql.query(
      `INSERT INTO rag_jobs (id, workspace_id, kind, idempotency_key, status, attempts, payload, trace_id, started_at)
       VALUES ($1, $2, $3, $4, 'active', 1, $5, $6, now())`,
      [id, job.workspaceId, job.kind, `inline:${id}`, JSON.stringify(job.payload), job.traceId ?? null],
    );
    return id;
  }

  async finish(id: string, outcome: { result: unknown } | { error: string }): Promise<void> {
    const failed = 'error' in outcome;
    await this.sql.query(
      `UPDATE rag_jobs SET status = $2, progress = CASE WHEN $2 = 'completed' THEN 1 ELSE progress END,
              result = $3, error = $4, updated_at = now(), finished_at = now()
       WHERE id = $1`,
      [
        id,
        failed ? 'failed' : 'completed',
        failed ? null : JSON.stringify(outcome.result),
        failed ? outcome.error : null,
      ],
    );
  }

  async get(id: string): Promise<JobRecord | null> {
    const result = await this.sql.query<JobRow>('SELECT * FROM rag_jobs WHERE id = $1', [id]);
    const row = result.rows[0];
    if (!row) return null;
    return {
      id: row.id,
      workspaceId: row.workspace_id,
      kind: row.kind,
      status: row.status,
      attempts: row.attempts,
      progress: row.progress,
      result: row.result,
      error: row.error,
      traceId: row.trace_id,
      createdAt: new Date(row.created_at).toISOString(),
      finishedAt: row.finished_at === null ? null : new Date(row.finished_at).toISOString(),
    };
  }
}
