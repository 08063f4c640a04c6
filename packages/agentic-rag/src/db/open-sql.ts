import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config/index.js';
import type { Logger } from '../telemetry/index.js';
import { openEmbedded } from './embedded/index.js';
import { PostgresSql } from './postgres.js';
import { migrate, type MigrateResult } from './migrate.js';
import type { Sql } from './sql.js';

/**
 * DATABASE_URL selects a Postgres server; otherwise the embedded database under DATA_DIR, served
 * from a worker thread of whichever process opened it first (see embedded/open-embedded.ts).
 */
export async function openSql(
  config: Pick<Config, 'DATABASE_URL' | 'DATABASE_POOL_MAX' | 'DATA_DIR'>,
  logger?: Logger,
): Promise<Sql> {
  if (config.DATABASE_URL) {
    return new PostgresSql({
      connectionString: config.DATABASE_URL,
      maxConnections: config.DATABASE_POOL_MAX,
    });
  }
  const dataDir = path.resolve(config.DATA_DIR, 'pglite');
  await mkdir(dataDir, { recursive: true });
  return openEmbedded(dataDir, logger ? { logger } : {});
}

/** Applies the schema to the configured database (rag:migrate), opening and closing it. */
export async function migrateDatabase(
  config: Pick<Config, 'DATABASE_URL' | 'DATABASE_POOL_MAX' | 'DATA_DIR'>,
  logger?: Logger,
): Promise<MigrateResult> {
  // The logger is the migration's; opening stays quiet, as it always was for rag:migrate.
  const sql = await openSql(config);
  try {
    return await migrate(sql, logger ? { logger } : {});
  } finally {
    await sql.close();
  }
}
