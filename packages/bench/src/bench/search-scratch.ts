import { PostgresSql } from '@agentic-rag/core';

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

export function databaseUrl(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** The marker of database `name`, or undefined when the database or its marker does not exist. */
export async function readScratchMarker(serverUrl: string, name: string): Promise<ScratchMarker | undefined> {
  const admin = new PostgresSql({ connectionString: serverUrl, maxConnections: 1 });
  try {
    const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (exists.rowCount === 0) return undefined;
  } finally {
    await admin.close();
  }
  const sql = new PostgresSql({ connectionString: databaseUrl(serverUrl, name), maxConnections: 1 });
  try {
    const table = await sql.query<{ present: boolean }>('SELECT to_regclass($1) IS NOT NULL AS present', [
      MARKER_TABLE,
    ]);
    if (!table.rows[0]?.present) return undefined;
    const result = await sql.query<{ fingerprint: string; queries: string[] }>(
      `SELECT fingerprint, queries FROM ${MARKER_TABLE} LIMIT 1`,
    );
    return result.rows[0];
  } finally {
    await sql.close();
  }
}

export async function writeScratchMarker(
  serverUrl: string,
  name: string,
  marker: ScratchMarker,
): Promise<void> {
  const sql = new PostgresSql({ connectionString: databaseUrl(serverUrl, name), maxConnections: 1 });
  try {
    await sql.query(
      `CREATE TABLE IF NOT EXISTS ${MARKER_TABLE} (fingerprint text NOT NULL, queries jsonb NOT NULL)`,
    );
    await sql.query(`DELETE FROM ${MARKER_TABLE}`);
    await sql.query(`INSERT INTO ${MARKER_TABLE} (fingerprint, queries) VALUES ($1, $2)`, [
      marker.fingerprint,
      JSON.stringify(marker.queries),
    ]);
  } finally {
    await sql.close();
  }
}

/** Drops database `name` (connections closed) and creates it empty; returns its URL. */
export async function recreateScratchDatabase(serverUrl: string, name: string): Promise<string> {
  const admin = new PostgresSql({ connectionString: serverUrl, maxConnections: 1 });
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.close();
  }
  return databaseUrl(serverUrl, name);
}

export async function dropScratchDatabase(serverUrl: string, name: string): Promise<void> {
  const admin = new PostgresSql({ connectionString: serverUrl, maxConnections: 1 });
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  } finally {
    await admin.close();
  }
}
