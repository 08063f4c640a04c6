import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testBackends } from '../../../../test/backends.js';
import { sqlConformance } from './conformance.js';
import { DEFAULT_MIGRATIONS_DIR, migrate, PgliteSql, PostgresSql } from './index.js';

// The conformance suite every Sql adapter runs (conformance.ts): what the rest of the code relies on.
describe.each(testBackends())('Sql conformance on $name', (backend) => {
  sqlConformance(() => backend.open());
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

  it.runIf(Boolean(process.env.TEST_DATABASE_URL))(
    'applies each migration exactly once when several processes migrate a fresh database at once',
    async () => {
      const admin = new PostgresSql({ connectionString: process.env.TEST_DATABASE_URL!, maxConnections: 1 });
      const name = `rag_migrate_${Date.now()}`;
      await admin.query(`CREATE DATABASE ${name}`);
      const url = new URL(process.env.TEST_DATABASE_URL!);
      url.pathname = `/${name}`;
      const clients = [1, 2, 3].map(
        () => new PostgresSql({ connectionString: url.toString(), maxConnections: 1 }),
      );
      try {
        const results = await Promise.all(clients.map((client) => migrate(client)));
        const files = (await readdir(DEFAULT_MIGRATIONS_DIR)).filter((file) => file.endsWith('.sql')).sort();
        expect(results.flatMap((result) => result.applied).sort()).toEqual(files);
        for (const result of results)
          expect([...result.applied, ...result.alreadyApplied].sort()).toEqual(files);
      } finally {
        await Promise.all(clients.map((client) => client.close()));
        await admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
        await admin.close();
      }
    },
  );
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

  it('keeps a second open of a PGlite data directory out, in this process or another', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'rag-pglite-'));
    const db = path.join(dataDir, 'db');
    const first = await PgliteSql.open({ dataDir: db });
    try {
      await expect(PgliteSql.open({ dataDir: db })).rejects.toMatchObject({
        code: 'STORE_UNAVAILABLE',
        details: { pid: process.pid },
      });
      // The refused open must not have released the first one's lock.
      await expect(PgliteSql.open({ dataDir: db })).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE' });
    } finally {
      await first.close();
    }
    // Closed: the directory is free again.
    const again = await PgliteSql.open({ dataDir: db });
    await again.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('takes over a lock left by a process that died', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'rag-pglite-'));
    const db = path.join(dataDir, 'db');
    // A pid far above pid_max: no such process.
    await writeFile(`${db}.lock`, '999999999 stale-token');
    const sql = await PgliteSql.open({ dataDir: db });
    expect((await readFile(`${db}.lock`, 'utf8')).startsWith(`${process.pid} `)).toBe(true);
    await sql.close();
    await expect(readFile(`${db}.lock`, 'utf8')).rejects.toThrow();
    await rm(dataDir, { recursive: true, force: true });
  });
});

describe.runIf(Boolean(process.env.TEST_DATABASE_URL))('a statement Postgres cancels', () => {
  it('is STATEMENT_CANCELLED, retryable, and the transaction it was in writes nothing', async () => {
    // What a DBA's statement_timeout on the role does to a slow statement: SQLSTATE 57014, which
    // was once reported as INTERNAL.
    const sql = new PostgresSql({ connectionString: process.env.TEST_DATABASE_URL!, maxConnections: 1 });
    const table = `cancel_probe_${process.pid}`;
    try {
      await sql.query(`CREATE TABLE ${table} (id int)`);
      const outcome = sql.transaction(async (tx) => {
        await tx.query(`INSERT INTO ${table} VALUES (1)`);
        await tx.query("SET LOCAL statement_timeout = '50ms'");
        await tx.query('SELECT pg_sleep(2)');
      });
      await expect(outcome).rejects.toMatchObject({
        code: 'STATEMENT_CANCELLED',
        retryable: true,
        details: { sqlState: '57014' },
      });
      expect((await sql.query(`SELECT count(*)::int AS n FROM ${table}`)).rows).toEqual([{ n: 0 }]);
    } finally {
      await sql.query(`DROP TABLE IF EXISTS ${table}`);
      await sql.close();
    }
  });
});

describe.runIf(Boolean(process.env.TEST_DATABASE_URL))('a Postgres connection lost mid-transaction', () => {
  it('fails the transaction with STORE_UNAVAILABLE and leaves the process and the pool alive', async () => {
    // What a server restart does to a worker between two statements of its write: the
    // connection's 'error' event arrives while no statement runs (it once ended the process).
    const sql = new PostgresSql({ connectionString: process.env.TEST_DATABASE_URL!, maxConnections: 2 });
    const admin = new PostgresSql({ connectionString: process.env.TEST_DATABASE_URL!, maxConnections: 1 });
    try {
      const outcome = sql.transaction(async (tx) => {
        const { rows } = await tx.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
        await admin.query('SELECT pg_terminate_backend($1)', [rows[0]!.pid]);
        await new Promise((resolve) => setTimeout(resolve, 300));
        await tx.query('SELECT 1');
      });
      await expect(outcome).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE' });
      expect((await sql.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    } finally {
      await sql.close();
      await admin.close();
    }
  });
});
