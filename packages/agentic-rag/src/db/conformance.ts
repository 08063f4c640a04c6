import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { migrate } from './migrate.js';
import type { Sql } from './sql.js';

/**
 * What every Sql adapter promises (PGlite, node-postgres, the read-routing wrapper), as a vitest
 * suite to call inside a describe(). `open` returns a migrated database the suite closes; the
 * rows it writes are in workspaces of its own, removed again.
 */
export function sqlConformance(open: () => Promise<Sql>): void {
  const uniqueWorkspace = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}`;
  const dropWorkspace = (sql: Sql, workspaceId: string) =>
    sql.query('DELETE FROM rag_workspaces WHERE id = $1', [workspaceId]);
  let sql: Sql;
  beforeAll(async () => {
    sql = await open();
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

  it('counts rows returned and rows changed alike', async () => {
    const workspace = uniqueWorkspace('count');
    await sql.query('INSERT INTO rag_workspaces (id) VALUES ($1), ($2)', [workspace, `${workspace}-b`]);
    expect(
      (await sql.query('SELECT id FROM rag_workspaces WHERE id LIKE $1', [`${workspace}%`])).rowCount,
    ).toBe(2);
    expect(
      (await sql.query('UPDATE rag_workspaces SET corpus_version = 1 WHERE id LIKE $1', [`${workspace}%`]))
        .rowCount,
    ).toBe(2);
    expect((await sql.query('SELECT id FROM rag_workspaces WHERE id = $1', ['none'])).rowCount).toBe(0);
    expect(
      (await sql.query('DELETE FROM rag_workspaces WHERE id LIKE $1 RETURNING id', [`${workspace}%`]))
        .rowCount,
    ).toBe(2);
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
    await expect(sql.query('SELECT 1', [], { signal: controller.signal })).rejects.toMatchObject({
      code: 'ABORTED',
    });
    await expect(sql.transaction(async () => 1, { signal: controller.signal })).rejects.toMatchObject({
      code: 'ABORTED',
    });
  });

  it('applies migrations once: a second run has nothing to do', async () => {
    const result = await migrate(sql);
    expect(result.applied).toEqual([]);
    expect(result.alreadyApplied).toContain('2026-01-03_agentic_rag.sql');
  });
}
