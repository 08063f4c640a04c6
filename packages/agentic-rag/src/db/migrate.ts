import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { ErrorCode, RagError } from '../errors/index.js';
import { silentLogger, type Logger } from '../telemetry/index.js';
import type { Sql } from './sql.js';

/** The repository's migrations/ folder, found relative to this file. */
export const DEFAULT_MIGRATIONS_DIR = fileURLToPath(new URL('../../../../migrations/', import.meta.url));

// Any constant shared by every process that migrates the same database.
const MIGRATION_LOCK_KEY = 7_351_022_026;

const CREATE_LEDGER = `
  CREATE TABLE IF NOT EXISTS rag_schema_migrations (
    name       text PRIMARY KEY,
    checksum   text NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now()
  )`;

export interface MigrateOptions {
  directory?: string;
  logger?: Logger;
}

export interface MigrateResult {
  applied: string[];
  alreadyApplied: string[];
}

/**
 * Applies migrations/*.sql in file-name order, each in its own transaction under a transaction-
 * scoped advisory lock, so concurrent starts (API + workers) apply each file exactly once.
 * A file whose checksum differs from the one recorded means a landed migration was edited: that
 * is refused rather than silently ignored.
 */
export async function migrate(sql: Sql, options: MigrateOptions = {}): Promise<MigrateResult> {
  const directory = options.directory ?? DEFAULT_MIGRATIONS_DIR;
  const logger = options.logger ?? silentLogger;
  const files = (await readdir(directory)).filter((name) => name.endsWith('.sql')).sort();
  const result: MigrateResult = { applied: [], alreadyApplied: [] };

  for (const name of files) {
    const script = await readFile(path.join(directory, name), 'utf8');
    const checksum = createHash('sha256').update(script).digest('hex');
    const applied = await sql.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
      await tx.exec(CREATE_LEDGER);
      const existing = await tx.query<{ checksum: string }>(
        'SELECT checksum FROM rag_schema_migrations WHERE name = $1',
        [name],
      );
      const recorded = existing.rows[0];
      if (recorded) {
        if (recorded.checksum !== checksum) {
          throw new RagError(
            ErrorCode.MIGRATION_FAILED,
            `migration ${name} was changed after it was applied; add a new migration instead`,
            { details: { migration: name } },
          );
        }
        return false;
      }
      try {
        await tx.exec(script);
      } catch (error) {
        throw new RagError(
          ErrorCode.MIGRATION_FAILED,
          `migration ${name} failed: ${(error as Error).message}`,
          {
            cause: error,
            details: { migration: name },
          },
        );
      }
      await tx.query('INSERT INTO rag_schema_migrations (name, checksum) VALUES ($1, $2)', [name, checksum]);
      return true;
    });
    (applied ? result.applied : result.alreadyApplied).push(name);
    if (applied) logger.info('migration applied', { event: 'migration-applied', migration: name });
  }
  return result;
}
