import { PostgresSql } from '@agentic-rag/core';

/** The URL of database `name` on the server of `serverUrl`. */
export function databaseUrl(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * `action` on one connection to `url`, closed after it: the short sessions that create, drop and
 * look into scratch databases (on the server's own database, or on the scratch one).
 */
export async function withConnection<T>(url: string, action: (sql: PostgresSql) => Promise<T>): Promise<T> {
  const sql = new PostgresSql({ connectionString: url, maxConnections: 1 });
  try {
    return await action(sql);
  } finally {
    await sql.close();
  }
}

/** Whether database `name` exists on the server `admin` is connected to. */
export async function databaseExists(admin: PostgresSql, name: string): Promise<boolean> {
  const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
  return exists.rowCount !== 0;
}

/**
 * A benchmark's own database on the server of `serverUrl`, created on first use and kept between
 * runs (loading 100k chunks takes minutes; a rerun should not pay for it again).
 */
export async function openScratchDatabase(
  serverUrl: string,
  name: string,
  maxConnections = 4,
): Promise<PostgresSql> {
  await withConnection(serverUrl, async (admin) => {
    if (!(await databaseExists(admin, name))) await admin.query(`CREATE DATABASE ${name}`);
  });
  return new PostgresSql({ connectionString: databaseUrl(serverUrl, name), maxConnections });
}

/** Drops database `name` (connections closed) and creates it empty; returns its URL. */
export async function recreateScratchDatabase(serverUrl: string, name: string): Promise<string> {
  await withConnection(serverUrl, async (admin) => {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${name}`);
  });
  return databaseUrl(serverUrl, name);
}

export async function dropScratchDatabase(serverUrl: string, name: string): Promise<void> {
  await withConnection(serverUrl, (admin) => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
}
