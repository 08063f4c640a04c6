import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropWorkspace, testBackends, uniqueWorkspace } from '../../../../test/backends.js';
import { DEFAULT_MIGRATIONS_DIR, migrate, PgliteSql, PostgresSql, type Sql } from './index.js';

// The conformance suite every Sql adapter runs: what the rest of the code relies on.
describe.each(testBackends())('Sql conformance on $name', (backend) => {
  let sql: Sql;
  beforeAll(async () => {
    sql = await backend.open();
  });
  afterAll(async () => {
    await sql.close();
  });

  it('binds parameters and returns bigint and numeric as numbers', async () => {
    const result = await sql.query<{ big: number; num: number; text: string; list: string[] }>(
      'SELECT $1::bigint AS big, 2.5::numeric AS num, $2::text AS text, $3::text[] AS list',
      [9_007_199_254, 'héllo', ['a', 'b']],
    );
    expect(result.rows).toEqual([{ big: 9_007_199_254, num: 2.5, text: 'héllo', list: ['a', 'b'] }]);
  });

  it('round-trips vectors through pgvector, and casts them to real[]', async () => {
    const result = await sql.query<{ v: string; a: number[]; d: number }>(
      "SELECT '[1,2,3]'::vector AS v, '[1,2,3]'::vector::real[] AS a, '[1,0]'::vector <=> '[0,1]'::vector AS d",
    );
    expect(result.rows[0]).toEqual({ v: '[1,2,3]', a: [1, 2, 3], d: 1 });
  });

  it('commits a transaction that resolves and rolls back one that throws', async () => {
    const workspace = uniqueWorkspace('tx');
    await sql.transaction(async (tx) => {
      await tx.query('INSERT INTO rag_workspaces (id) VALUES ($1)', [workspace]);
    });
    await expect(
      sql.transaction(async (tx) => {
        await tx.query('UPDATE rag_workspaces SET corpus_version = 99 WHERE id = $1', [workspace]);
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    const row = await sql.query<{ corpus_version: number }>(
      'SELECT corpus_version FROM rag_workspaces WHERE id = $1',
      [workspace],
    );
    expect(row.rows).toEqual([{ corpus_version: 0 }]);
    await dropWorkspace(sql, workspace);
  });

  it('reports SQL errors with their SQLSTATE and leaves the connection usable', async () => {
    await expect(sql.query('SELECT * FROM no_such_table')).rejects.toMatchObject({
      code: 'INTERNAL',
      details: { sqlState: '42P01' },
    });
    expect((await sql.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
  });

  it('refuses to run a statement once its signal is aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(sql.query('SELECT 1', [], { signal: controller.signal })).rejects.toThrow();
  });

  it('applies migrations once: a second run has nothing to do', async () => {
    const result = await migrate(sql);
    expect(result.applied).toEqual([]);
    expect(result.alreadyApplied).toContain('2026-01-03_agentic_rag.sql');
  });
});

describe('migration runner', () => {
  let directory: string;
  beforeAll(async () => {
    directory = await mkdtemp(path.join(os.tmpdir(), 'rag-migrations-'));
    const base = await readFile(path.join(DEFAULT_MIGRATIONS_DIR, '2026-01-03_agentic_rag.sql'), 'utf8');
    await writeFile(path.join(directory, '2026-01-03_agentic_rag.sql'), base);
    await writeFile(path.join(directory, '2026-02-01_extra.sql'), 'CREATE TABLE extra_things (id int);');
  });
  afterAll(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it('applies files in name order, records them, and refuses an edited one', async () => {
    const sql = await PgliteSql.open();
    try {
      expect((await migrate(sql, { directory })).applied).toEqual([
        '2026-01-03_agentic_rag.sql',
        '2026-02-01_extra.sql',
      ]);
      await writeFile(path.join(directory, '2026-02-01_extra.sql'), 'CREATE TABLE extra_things (id bigint);');
      await expect(migrate(sql, { directory })).rejects.toMatchObject({ code: 'MIGRATION_FAILED' });
    } finally {
      await sql.close();
    }
  });

  it('rolls back a failing migration entirely and reports which one failed', async () => {
    const broken = await mkdtemp(path.join(os.tmpdir(), 'rag-migrations-'));
    await writeFile(path.join(broken, '001_ok.sql'), 'CREATE TABLE ok_table (id int);');
    await writeFile(
      path.join(broken, '002_bad.sql'),
      'CREATE TABLE half_done (id int); SELECT no_such_function();',
    );
    const sql = await PgliteSql.open();
    try {
      await expect(migrate(sql, { directory: broken })).rejects.toMatchObject({
        code: 'MIGRATION_FAILED',
        details: { migration: '002_bad.sql' },
      });
      const tables = await sql.query<{ name: string }>(
        "SELECT table_name AS name FROM information_schema.tables WHERE table_name IN ('ok_table', 'half_done')",
      );
      expect(tables.rows.map((row) => row.name)).toEqual(['ok_table']);
    } finally {
      await sql.close();
      await rm(broken, { recursive: true, force: true });
    }
  });

  it('applies each migration exactly once when several processes migrate at the same time', async () => {
    const url = process.env.TEST_DATABASE_URL;
    if (!url) return;
    const clients = [1, 2, 3].map(() => new PostgresSql({ connectionString: url, maxConnections: 1 }));
    try {
      const results = await Promise.all(clients.map((client) => migrate(client)));
      for (const result of results) expect(result.applied).toEqual([]);
    } finally {
      await Promise.all(clients.map((client) => client.close()));
    }
  });
});

describe('connection failures', () => {
  it('maps an unreachable server to STORE_UNAVAILABLE', async () => {
    const sql = new PostgresSql({ connectionString: 'postgres://postgres@127.0.0.1:1/none' });
    try {
      await expect(sql.query('SELECT 1')).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE' });
    } finally {
      await sql.close();
    }
  });

  it('keeps a second process out of a PGlite data directory in use', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'rag-pglite-'));
    const first = await PgliteSql.open({ dataDir: path.join(dataDir, 'db') });
    try {
      await writeFile(path.join(dataDir, 'db.lock'), String(process.ppid));
      await expect(PgliteSql.open({ dataDir: path.join(dataDir, 'db') })).rejects.toMatchObject({
        code: 'STORE_UNAVAILABLE',
      });
    } finally {
      await first.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
