import { describe, expect, it } from 'vitest';
import { ErrorCode, RagError } from '../../errors/index.js';
import { routedReads } from '../../telemetry/index.js';
import type { QueryResult, Sql, SqlExecutor, SqlRow } from '../sql.js';
import { CorpusVersions, withCorpusVersion } from './read-consistency.js';
import { ReadRoutingSql } from './read-routing-sql.js';

/** A Sql that records the statements it was sent; the replica's says its version, or fails. */
class RecordingSql implements Sql {
  readonly backend = 'postgres' as const;
  readonly statements: string[] = [];
  version = 0;
  failWith: RagError | null = null;
  closed = false;

  async query<Row extends SqlRow = SqlRow>(text: string): Promise<QueryResult<Row>> {
    this.statements.push(text);
    if (this.failWith) throw this.failWith;
    const rows = text.includes('rag_workspaces') ? [{ corpus_version: this.version }] : [];
    return { rows: rows as unknown as Row[], rowCount: rows.length };
  }

  async exec(script: string): Promise<void> {
    this.statements.push(script);
  }

  async transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    return work(this);
  }

  async close(): Promise<void> {
    this.closed = true;
  }
}

function setup(replicaVersion: number) {
  const primary = new RecordingSql();
  const replica = new RecordingSql();
  replica.version = replicaVersion;
  const sql = new ReadRoutingSql({ primary, replica, staleVersionMs: 0, freshVersionMs: 0 });
  const reads = (side: RecordingSql) => side.statements.filter((text) => text === 'SELECT 1');
  return { primary, replica, sql, reads };
}

const routed = async (target: string) =>
  (await routedReads.get()).values.find((value) => value.labels.target === target)?.value ?? 0;

describe('ReadRoutingSql', () => {
  it.each([
    { replicaVersion: 7, needed: 0, side: 'replica' },
    { replicaVersion: 7, needed: 7, side: 'replica' },
    { replicaVersion: 7, needed: 8, side: 'primary' },
  ])('a read needing $needed with the replica at $replicaVersion goes to the $side', async (row) => {
    const { primary, replica, sql, reads } = setup(row.replicaVersion);
    const before = await routed(row.side);
    await withCorpusVersion('ws', row.needed, () => sql.query('SELECT 1'));
    expect(reads(row.side === 'replica' ? replica : primary)).toHaveLength(1);
    expect(reads(row.side === 'replica' ? primary : replica)).toHaveLength(0);
    // /metrics says where routed reads ran.
    expect((await routed(row.side)) - before).toBe(1);
  });

  it('sends statements outside withCorpusVersion and scripts to the primary, and never asks the replica', async () => {
    const { primary, replica, sql } = setup(9);
    await sql.query('INSERT INTO t VALUES (1)');
    await withCorpusVersion('ws', 0, () => sql.exec('CREATE TABLE t ()'));
    expect(primary.statements).toEqual(['INSERT INTO t VALUES (1)', 'CREATE TABLE t ()']);
    expect(replica.statements).toEqual([]);
  });

  it('asks the replica once per request: the rest of the request sticks to that side', async () => {
    const { replica, sql, reads } = setup(3);
    await withCorpusVersion('ws', 3, async () => {
      await Promise.all([sql.query('SELECT 1'), sql.query('SELECT 1')]);
      await sql.transaction((tx) => tx.query('SELECT 1'));
    });
    expect(replica.statements.filter((text) => text.includes('rag_workspaces'))).toHaveLength(1);
    expect(reads(replica)).toHaveLength(3);
  });

  it('runs a write the standby refuses on the primary, and the rest of the request too', async () => {
    const { primary, replica, sql, reads } = setup(3);
    await withCorpusVersion('ws', 0, async () => {
      await sql.query('SELECT 1');
      replica.failWith = new RagError(ErrorCode.INTERNAL, 'read-only', { details: { sqlState: '25006' } });
      await sql.query('SELECT 1');
      replica.failWith = null;
      await sql.query('SELECT 1');
    });
    expect(reads(replica)).toHaveLength(2); // the first read, and the refused one
    expect(reads(primary)).toHaveLength(2);
    expect(sql.stats()).toMatchObject({ fallbacks: 1, replicaDown: false });
  });

  it('skips an unreachable replica for a while and reads from the primary', async () => {
    const { primary, replica, sql, reads } = setup(3);
    replica.failWith = new RagError(ErrorCode.STORE_UNAVAILABLE, 'database unavailable: ECONNREFUSED');
    await withCorpusVersion('ws', 0, () => sql.query('SELECT 1'));
    await withCorpusVersion('ws', 0, () => sql.query('SELECT 1'));
    expect(reads(primary)).toHaveLength(2);
    // One probe failed; the second request did not try the replica again.
    expect(replica.statements).toHaveLength(1);
    expect(sql.stats().replicaDown).toBe(true);
  });

  it('closes the replica only', async () => {
    const { primary, replica, sql } = setup(0);
    await sql.close();
    expect([primary.closed, replica.closed]).toEqual([false, true]);
  });
});

describe('CorpusVersions', () => {
  it('remembers the newest version per workspace and ignores older or invalid ones', () => {
    const versions = new CorpusVersions();
    versions.note('a', 4);
    versions.note('a', 2);
    versions.note('a', Number.NaN);
    versions.note('b', 1);
    expect([versions.latest('a'), versions.latest('b'), versions.latest('c')]).toEqual([4, 1, 0]);
  });
});
