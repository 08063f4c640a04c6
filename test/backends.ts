import { randomUUID } from 'node:crypto';
import { migrate, PgliteSql, PostgresSql, type Sql } from '../packages/agentic-rag/src/index.js';

export interface TestBackend {
  name: 'pglite' | 'postgres';
  /** A migrated database; PGlite is a fresh in-memory one, Postgres the shared test server. */
  open(): Promise<Sql>;
}

const pglite: TestBackend = {
  name: 'pglite',
  async open() {
    const sql = await PgliteSql.open();
    await migrate(sql);
    return sql;
  },
};

const postgres = (url: string): TestBackend => ({
  name: 'postgres',
  // Migrations were applied once by test/global-setup.ts.
  open: async () => new PostgresSql({ connectionString: url, maxConnections: 4 }),
});

/** PGlite always; the real Postgres whenever TEST_DATABASE_URL is set (always in CI). */
export function testBackends(): TestBackend[] {
  const url = process.env.TEST_DATABASE_URL;
  return url ? [pglite, postgres(url)] : [pglite];
}

/** A workspace id no other test uses, so tests can share one Postgres database. */
export function uniqueWorkspace(prefix = 'test'): string {
  return `${prefix}-${randomUUID().slice(0, 8)}`;
}

export async function dropWorkspace(sql: Sql, workspaceId: string): Promise<void> {
  await sql.query('DELETE FROM rag_workspaces WHERE id = $1', [workspaceId]);
}
