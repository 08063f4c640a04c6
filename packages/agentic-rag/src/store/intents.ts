import { AsyncLocalStorage } from 'node:async_hooks';
import type { SqlExecutor } from '../db/index.js';
import { ErrorCode, RagError } from '../errors/index.js';

/**
 * What a workspace last asked a document to be (see migrations/2026-11-26_1_job_truth.sql). A
 * document here is the unit a job ingests: a file of a folder (`<folder>/<path>`) or an inline id,
 * whatever number of stored documents it yields.
 */
export interface DocumentIntent {
  document: string;
  generation: number;
}

/**
 * Records an ingest of `contentHash` and returns the generation it belongs to: the current one
 * when the same bytes were already asked for (the same job), the next one when they differ or
 * the document was deleted since.
 */
export async function intendIngest(
  sql: SqlExecutor,
  workspaceId: string,
  document: string,
  contentHash: string,
): Promise<number> {
  const result = await sql.query<{ generation: number }>(
    `INSERT INTO rag_document_intents AS intent (workspace_id, document, generation, content_hash)
     VALUES ($1, $2, 0, $3)
     ON CONFLICT (workspace_id, document) DO UPDATE
       SET generation = CASE WHEN intent.content_hash IS NOT DISTINCT FROM excluded.content_hash
                             THEN intent.generation ELSE intent.generation + 1 END,
           content_hash = excluded.content_hash,
           updated_at = now()
     RETURNING generation`,
    [workspaceId, document, contentHash],
  );
  return result.rows[0]!.generation;
}

/**
 * A delete: every named document starts a new generation with no bytes, so a queued or running
 * job of an older one stores nothing. Takes the rows' locks, which a write's check waits on.
 */
export async function intendDeletion(
  sql: SqlExecutor,
  workspaceId: string,
  documents: readonly string[],
): Promise<void> {
  if (documents.length === 0) return;
  await sql.query(
    `INSERT INTO rag_document_intents AS intent (workspace_id, document, generation, content_hash)
     SELECT $1, document, 1, NULL FROM unnest($2::text[]) AS document
     ON CONFLICT (workspace_id, document) DO UPDATE
       SET generation = intent.generation + 1, content_hash = NULL, updated_at = now()`,
    [workspaceId, [...new Set(documents)].sort()],
  );
}

/** The intent a write made outside any queued job leaves: "whatever was written directly". */
const DIRECT = 'direct';

/**
 * Writes outside the queue (the inline mode, `rag:ingest --inline`): a queued job of an earlier
 * generation must not overwrite them, and a later enqueue, of any bytes, is a new job rather than
 * the completed one of an earlier intent. Moves each document's generation once per run of direct
 * writes; rows are locked in document order, so concurrent writers cannot deadlock.
 */
export async function intendDirectWrites(
  tx: SqlExecutor,
  workspaceId: string,
  documents: readonly string[],
): Promise<void> {
  await tx.query(
    `INSERT INTO rag_document_intents AS intent (workspace_id, document, generation, content_hash)
     SELECT $1, document, 0, $3 FROM unnest($2::text[]) AS document
     ON CONFLICT (workspace_id, document) DO UPDATE
       SET generation = intent.generation + 1, content_hash = excluded.content_hash, updated_at = now()
       WHERE intent.content_hash IS DISTINCT FROM excluded.content_hash`,
    [workspaceId, [...new Set(documents)].sort(), DIRECT],
  );
}

/**
 * Inside a write's transaction: throws SUPERSEDED when the document was deleted or asked for
 * other bytes after this job was queued. The shared lock makes a concurrent delete wait for the
 * write (which it then deletes) or the write wait for the delete (and then refuse).
 */
export async function assertCurrentIntent(
  tx: SqlExecutor,
  workspaceId: string,
  intent: DocumentIntent,
): Promise<void> {
  const result = await tx.query<{ generation: number }>(
    'SELECT generation FROM rag_document_intents WHERE workspace_id = $1 AND document = $2 FOR SHARE',
    [workspaceId, intent.document],
  );
  const current = result.rows[0]?.generation ?? 0;
  if (current !== intent.generation) {
    throw new RagError(
      ErrorCode.SUPERSEDED,
      `"${intent.document}" changed since this job was queued (generation ${intent.generation}, now ${current}): nothing stored`,
      { details: { document: intent.document, generation: intent.generation, current } },
    );
  }
}

const running = new AsyncLocalStorage<DocumentIntent>();

/** Runs a queued job's ingest so that every document it writes checks the job's generation. */
export function withIntent<T>(intent: DocumentIntent, work: () => Promise<T>): Promise<T> {
  return running.run(intent, work);
}

/** The intent the current write must still match, when a queued job is writing. */
export function currentIntent(): DocumentIntent | undefined {
  return running.getStore();
}
