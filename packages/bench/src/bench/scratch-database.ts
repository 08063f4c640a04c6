import { PostgresSql } from '@agentic-rag/core';

/**
 * A benchmark's own database on the server of `serverUrl`, created on first use and kept between
 * runs (loading 100k chunks takes minutes; a rerun should not pay for it again).
 */
export async function openScratchDatabase(
  serverUrl: string,
  name: string,
  maxConnections = 4,
): Promise<PostgresSql> {
  const admin = new PostgresSql({ connectionString: serverUrl, maxConnections: 1 });
  try {
    const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (exists.rowCount === 0) await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.close();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return new PostgresSql({ connectionString: url.toString(), maxConnections });
}
