import { migrate, PostgresSql } from '../packages/agentic-rag/src/index.js';

/**
 * Applies migrations once to the real Postgres used by integration tests. In CI that server is
 * required: a missing TEST_DATABASE_URL fails the run instead of silently skipping half the suite.
 */
export default async function setup(): Promise<void> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) {
    if (process.env.CI === 'true') throw new Error('TEST_DATABASE_URL must be set in CI (see .ci/run)');
    console.warn('TEST_DATABASE_URL is not set: integration tests run on PGlite only');
    return;
  }
  const sql = new PostgresSql({ connectionString: url, maxConnections: 2 });
  try {
    await migrate(sql);
  } finally {
    await sql.close();
  }
}
