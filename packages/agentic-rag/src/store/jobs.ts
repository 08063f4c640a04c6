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
  /** What was asked, as rag_jobs keeps it (an inline document's size, never its text). */
  payload: unknown;
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
  payload: unknown;
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

  /** A job handed to the queue; enqueueing the same job id again changes nothing. */
  async queued(job: {
    id: string;
    kind: string;
    workspaceId: string;
    payload: unknown;
    traceId?: string | null;
  }): Promise<void> {
    await this.sql.query(
      `INSERT INTO rag_jobs (id, workspace_id, kind, idempotency_key, status, payload, trace_id)
       VALUES ($1, $2, $3, $1, 'queued', $4, $5)
       ON CONFLICT DO NOTHING`,
      [job.id, job.workspaceId, job.kind, JSON.stringify(job.payload), job.traceId ?? null],
    );
  }

  /** A worker took the job (again, after a crash or a retry: attempts says which time). */
  async active(id: string, attempts: number): Promise<void> {
    await this.sql.query(
      `UPDATE rag_jobs SET status = 'active', attempts = $2, error = NULL, updated_at = now(),
              started_at = coalesce(started_at, now())
       WHERE id = $1`,
      [id, attempts],
    );
  }

  async progress(id: string, progress: number): Promise<void> {
    await this.sql.query('UPDATE rag_jobs SET progress = $2, updated_at = now() WHERE id = $1', [
      id,
      progress,
    ]);
  }

  /** An attempt failed: `queued` again when it will be retried, `dead` when it went to the DLQ. */
  async attemptFailed(id: string, attempts: number, error: string, dead: boolean): Promise<void> {
    await this.sql.query(
      `UPDATE rag_jobs SET status = $2, attempts = $3, error = $4, updated_at = now(),
              finished_at = CASE WHEN $2 = 'dead' THEN now() ELSE NULL END
       WHERE id = $1`,
      [id, dead ? 'dead' : 'queued', attempts, error],
    );
  }

  /** A dead job put back on the queue: a fresh start. */
  async requeue(id: string): Promise<void> {
    await this.sql.query(
      `UPDATE rag_jobs SET status = 'queued', attempts = 0, error = NULL, progress = 0, updated_at = now(),
              started_at = NULL, finished_at = NULL
       WHERE id = $1`,
      [id],
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
      payload: row.payload,
      result: row.result,
      error: row.error,
      traceId: row.trace_id,
      createdAt: new Date(row.created_at).toISOString(),
      finishedAt: row.finished_at === null ? null : new Date(row.finished_at).toISOString(),
    };
  }
}
