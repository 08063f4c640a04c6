import type { Sql } from '../db/index.js';

/** What building the vector index may use (VECTOR_INDEX_BUILD_MEMORY_MB, VECTOR_INDEX_BUILD_WORKERS). */
export interface IndexBuildSettings {
  memoryMb: number;
  workers: number;
}

/**
 * Indexes a bulk load may drop and build once at its end, because building an index over rows
 * already written is cheaper than inserting into it row by row. Each definition must stay
 * identical to the migrations' (a test compares them):
 *   vector    the HNSW index (migrations/2026-01-03_agentic_rag.sql): 1,000 live inserts cost
 *             3.4 s, a build over 5,000 vectors 6.1 s
 */
export type DeferredIndex = 'vector';

const EXISTS: Record<DeferredIndex, string> = {
  vector: "SELECT 1 FROM pg_indexes WHERE indexname = 'rag_chunks_embedding_idx'",
};

const DROP: Record<DeferredIndex, string[]> = {
  vector: ['DROP INDEX IF EXISTS rag_chunks_embedding_idx'],
};

const CREATE: Record<DeferredIndex, Array<{ exists: string; create: string }>> = {
  vector: [
    {
      exists: "SELECT 1 FROM pg_indexes WHERE indexname = 'rag_chunks_embedding_idx'",
      create: 'CREATE INDEX rag_chunks_embedding_idx ON rag_chunks USING hnsw (embedding vector_cosine_ops)',
    },
  ],
};

/** Drops a deferred index (a no-op when it is already gone). */
export async function dropDeferredIndex(sql: Sql, index: DeferredIndex): Promise<void> {
  if ((await sql.query(EXISTS[index])).rowCount === 0) return;
  for (const statement of DROP[index]) await sql.query(statement);
}

/**
 * Builds whichever deferred indexes are missing: after a bulk load, or one interrupted before it
 * could (every start calls this). maintenance_work_mem bounds what a build holds in memory (past
 * it, pgvector's HNSW build is far slower); parallel workers share the builds on Postgres (PGlite
 * has none). An advisory lock makes two processes finishing loads build each index once.
 */
export async function ensureDeferredIndexes(sql: Sql, settings: IndexBuildSettings): Promise<void> {
  await sql.transaction(async (tx) => {
    await tx.query("SELECT pg_advisory_xact_lock(hashtext('rag_deferred_indexes'))");
    await tx.query("SELECT set_config('maintenance_work_mem', $1, true)", [`${settings.memoryMb}MB`]);
    if (sql.backend === 'postgres') {
      await tx.query("SELECT set_config('max_parallel_maintenance_workers', $1, true)", [
        String(settings.workers),
      ]);
    }
    for (const index of ['vector'] as const) {
      for (const { exists, create } of CREATE[index]) {
        if ((await tx.query(exists)).rowCount === 0) await tx.query(create);
      }
    }
  });
}
