import type { Sql } from '../db/index.js';
import { cacheKey, type AnswerCache, type AnswerKey } from './answer-cache.js';

/** The embedded default: `rag_cache_entries` in the corpus's own Postgres. */
export class PostgresAnswerCache implements AnswerCache {
  readonly backend = 'postgres' as const;

  constructor(private readonly sql: Sql) {}

  async get<T>(key: AnswerKey): Promise<T | null> {
    const result = await this.sql.query<{ answer: T }>(
      `SELECT answer FROM rag_cache_entries
       WHERE key = $1 AND workspace_id = $2 AND corpus_version = $3 AND expires_at > now()`,
      [cacheKey(key), key.workspaceId, key.corpusVersion],
    );
    return result.rows[0]?.answer ?? null;
  }

  async set(key: AnswerKey, value: unknown, ttlSeconds: number): Promise<void> {
    // Expired rows of the workspace go on write, so the table holds only what can still be served.
    await this.sql.query(
      `WITH purge AS (DELETE FROM rag_cache_entries WHERE workspace_id = $2 AND (expires_at <= now() OR corpus_version < $3))
       INSERT INTO rag_cache_entries (key, workspace_id, corpus_version, answer, expires_at)
       VALUES ($1, $2, $3, $4, now() + make_interval(secs => $5))
       ON CONFLICT (key) DO UPDATE SET answer = excluded.answer, expires_at = excluded.expires_at, created_at = now()`,
      [cacheKey(key), key.workspaceId, key.corpusVersion, JSON.stringify(value), ttlSeconds],
    );
  }

  async clear(workspaceId: string): Promise<number> {
    const result = await this.sql.query('DELETE FROM rag_cache_entries WHERE workspace_id = $1', [
      workspaceId,
    ]);
    return result.rowCount ?? 0;
  }

  async close(): Promise<void> {}
}
