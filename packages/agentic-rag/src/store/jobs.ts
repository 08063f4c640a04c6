import { randomUUID } from 'node:crypto';
import type { Sql, SqlExecutor } from '../db/index.js';
import { intendIngest } from './intents.js';

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

/** A job as it is enqueued: always of a workspace, its trace id when the request had one. */
export interface QueuedJob extends Pick<JobRecord, 'id' | 'kind' | 'payload'> {
  workspaceId: string;
  traceId?: string | null;
  /** An inline document's screened text, kept until the job completes (see the migration). */
  inlineContent?: string | null;
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
              result = $3, error = $4, updated_at = now(), finished_at = now(),
              inline_content = CASE WHEN $2 = 'completed' THEN NULL ELSE inline_content END
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
  async queued(job: QueuedJob, executor: SqlExecutor = this.sql): Promise<void> {
    await executor.query(
      `INSERT INTO rag_jobs (id, workspace_id, kind, idempotency_key, status, payload, trace_id, inline_content)
       VALUES ($1, $2, $3, $1, 'queued', $4, $5, $6)
       ON CONFLICT DO NOTHING`,
      [
        job.id,
        job.workspaceId,
        job.kind,
        JSON.stringify(job.payload),
        job.traceId ?? null,
        job.inlineContent ?? null,
      ],
    );
  }

  /**
   * A document's ingest handed to the queue, in one transaction with the intent it serves: the
   * generation is read (or started) first, and the job's id is made from it.
   */
  async queuedDocument(
    intent: { workspaceId: string; document: string; contentHash: string },
    job: (generation: number) => QueuedJob,
  ): Promise<QueuedJob> {
    return this.sql.transaction(async (tx) => {
      const generation = await intendIngest(tx, intent.workspaceId, intent.document, intent.contentHash);
      const queued = job(generation);
      await this.queued(queued, tx);
      return queued;
    });
  }

  /**
   * Jobs not finished (`queued`, `active`) untouched for `idleMs`, oldest first: what the
   * reconciler compares with the queue. With a workspace, only its jobs.
   */
  async unfinished(options: { idleMs: number; limit: number; workspaceId?: string }): Promise<JobRecord[]> {
    const result = await this.sql.query<JobRow>(
      `SELECT * FROM rag_jobs
       WHERE status IN ('queued', 'active') AND updated_at < now() - make_interval(secs => $1::float8 / 1000)
         AND ($3::text IS NULL OR workspace_id = $3)
       ORDER BY updated_at LIMIT $2`,
      [options.idleMs, options.limit, options.workspaceId ?? null],
    );
    return result.rows.map(toRecord);
  }

  /** Dead jobs whose dead letters were purged: finished as failed, their inline text dropped. */
  async givenUp(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.sql.query(
      `UPDATE rag_jobs SET status = 'failed', inline_content = NULL, updated_at = now(),
              error = coalesce(error, '') || ' (dead letter purged)'
       WHERE id = ANY($1::text[]) AND status = 'dead'`,
      [[...ids]],
    );
  }

  /** A workspace's dead jobs (ingests that used up their attempts or could not be run). */
  async dead(workspaceId: string): Promise<JobRecord[]> {
    const result = await this.sql.query<JobRow>(
      "SELECT * FROM rag_jobs WHERE workspace_id = $1 AND status = 'dead' ORDER BY updated_at",
      [workspaceId],
    );
    return result.rows.map(toRecord);
  }

  /** An inline document's text, kept while its job is unfinished (null once done, or for a file). */
  async inlineContent(id: string): Promise<string | null> {
    const result = await this.sql.query<{ inline_content: string | null }>(
      'SELECT inline_content FROM rag_jobs WHERE id = $1',
      [id],
    );
    return result.rows[0]?.inline_content ?? null;
  }

  /** The queue no longer runs the job (its worker died, or Redis lost it): back to `queued`. */
  async retried(id: string, reason: string): Promise<void> {
    await this.sql.query(
      `UPDATE rag_jobs SET status = 'queued', error = $2, updated_at = now()
       WHERE id = $1 AND status IN ('queued', 'active')`,
      [id, reason],
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

  /** A workspace's latest jobs, newest first, whichever plane ran them. */
  async recent(workspaceId: string, limit: number): Promise<JobRecord[]> {
    const result = await this.sql.query<JobRow>(
      'SELECT * FROM rag_jobs WHERE workspace_id = $1 ORDER BY created_at DESC, id LIMIT $2',
      [workspaceId, limit],
    );
    return result.rows.map(toRecord);
  }

  async get(id: string): Promise<JobRecord | null> {
    const result = await this.sql.query<JobRow>('SELECT * FROM rag_jobs WHERE id = $1', [id]);
    const row = result.rows[0];
    return row ? toRecord(row) : null;
  }
}

function toRecord(row: JobRow): JobRecord {
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
