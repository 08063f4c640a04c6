import { databaseExists, databaseUrl, withConnection } from './scratch-database.js';

/**
 * bench:search keeps its loaded databases between runs (loading 1M chunks takes a long while), and
 * needs to know what a kept one holds: a one-row table says which corpus, size, chunker and
 * embedder loaded it, and the queries drawn from that corpus, so a rerun on the same set skips
 * writing the corpus again.
 */
const MARKER_TABLE = 'bench_search_corpus';

export interface ScratchMarker {
  fingerprint: string;
  queries: string[];
}

/** The marker of database `name`, or undefined when the database or its marker does not exist. */
export async function readScratchMarker(serverUrl: string, name: string): Promise<ScratchMarker | undefined> {
  if (!(await withConnection(serverUrl, (admin) => databaseExists(admin, name)))) return undefined;
  return withConnection(databaseUrl(serverUrl, name), async (sql) => {
    const table = await sql.query<{ present: boolean }>('SELECT to_regclass($1) IS NOT NULL AS present', [
      MARKER_TABLE,
    ]);
    if (!table.rows[0]?.present) return undefined;
    const result = await sql.query<{ fingerprint: string; queries: string[] }>(
      `SELECT fingerprint, queries FROM ${MARKER_TABLE} LIMIT 1`,
    );
    return result.rows[0];
  });
}

export async function writeScratchMarker(
  serverUrl: string,
  name: string,
  marker: ScratchMarker,
): Promise<void> {
  await withConnection(databaseUrl(serverUrl, name), async (sql) => {
    await sql.query(
      `CREATE TABLE IF NOT EXISTS ${MARKER_TABLE} (fingerprint text NOT NULL, queries jsonb NOT NULL)`,
    );
    await sql.query(`DELETE FROM ${MARKER_TABLE}`);
    await sql.query(`INSERT INTO ${MARKER_TABLE} (fingerprint, queries) VALUES ($1, $2)`, [
      marker.fingerprint,
      JSON.stringify(marker.queries),
    ]);
  });
}
