import type { SqlExecutor } from '../db/index.js';

export interface IngestStageRecord {
  workspaceId: string;
  sourcePath: string;
  contentHash: string;
  stage: string;
  /** The queued job that ran it, when a worker did. */
  jobId: string | null;
  updatedAt: string;
}

/** The latest stage a document's ingest reached (one row per document, overwritten). */
export async function recordIngestStage(
  sql: SqlExecutor,
  event: { workspaceId: string; sourcePath: string; contentHash: string; stage: string },
  jobId: string | null = null,
): Promise<void> {
  await sql.query(
    `INSERT INTO rag_ingest_stages (workspace_id, source_path, content_hash, stage, job_id, updated_at)
     VALUES ($1, $2, $3, $4, $5, now())
     ON CONFLICT (workspace_id, source_path) DO UPDATE
       SET content_hash = excluded.content_hash, stage = excluded.stage, job_id = excluded.job_id, updated_at = now()`,
    [event.workspaceId, event.sourcePath, event.contentHash, event.stage, jobId],
  );
}

/** Documents whose latest ingest stopped before `stored`: what `rag:ingest --resume` re-runs. */
export async function unfinishedIngests(sql: SqlExecutor, workspaceId: string): Promise<IngestStageRecord[]> {
  const result = await sql.query<{
    source_path: string;
    content_hash: string;
    stage: string;
    job_id: string | null;
    updated_at: Date | string;
  }>(
    `SELECT source_path, content_hash, stage, job_id, updated_at FROM rag_ingest_stages
     WHERE workspace_id = $1 AND stage <> 'stored' ORDER BY source_path`,
    [workspaceId],
  );
  return result.rows.map((row) => ({
    workspaceId,
    sourcePath: row.source_path,
    contentHash: row.content_hash,
    stage: row.stage,
    jobId: row.job_id,
    updatedAt: new Date(row.updated_at).toISOString(),
  }));
}
