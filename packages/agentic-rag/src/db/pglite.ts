import { PGlite, types, type Transaction } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { vector } from '@electric-sql/pglite-pgvector';
import { acquireDataDirLock } from './data-dir-lock.js';
import { ScopedSql } from './scoped-sql.js';
import type { QueryOptions, QueryResult, SqlExecutor, SqlRow } from './sql.js';
import { abortedError, closedDatabaseError, translateDatabaseError } from './translate-error.js';
import { currentWorkspaceScope, SCOPE_STATEMENT } from './workspace-scope.js';

export interface PgliteSqlOptions {
  /** Directory for a file-backed database; omit for an in-memory one (tests). */
  dataDir?: string;
}

const parsers = {
  [types.INT8]: (value: string) => Number(value),
  [types.NUMERIC]: (value: string) => Number(value),
};

type PgliteLike = Pick<PGlite, 'query' | 'exec'> | Transaction;

class PgliteExecutor implements SqlExecutor {
  constructor(
    private readonly target: PgliteLike,
    private readonly database: PGlite,
  ) {}

  private translate(error: unknown) {
    return this.database.closed ? closedDatabaseError() : translateDatabaseError(error);
  }

  async query<Row extends SqlRow = SqlRow>(
    text: string,
    params: readonly unknown[] = [],
    options: QueryOptions = {},
  ): Promise<QueryResult<Row>> {
    if (options.signal?.aborted) throw abortedError(options.signal.reason);
    try {
      const result = await this.target.query<Row>(text, [...params], { parsers });
      // PGlite reports affectedRows 0 for a SELECT; rows returned count as much as rows changed.
      return {
        rows: result.rows,
        rowCount: result.rows.length > 0 ? result.rows.length : (result.affectedRows ?? 0),
      };
    } catch (error) {
      throw this.translate(error);
    }
  }

  async exec(script: string): Promise<void> {
    try {
      await this.target.exec(script);
    } catch (error) {
      throw this.translate(error);
    }
  }
}

/**
 * Embedded Postgres (WASM) with pgvector and pg_trgm: the zero-setup default. It is a single
 * connection, so statements and transactions are serialised by PGlite itself.
 */
export class PgliteSql extends ScopedSql {
  readonly backend = 'pglite' as const;
  protected readonly executor: PgliteExecutor;

  private constructor(
    private readonly db: PGlite,
    private readonly releaseLock: () => Promise<void>,
  ) {
    super();
    this.executor = new PgliteExecutor(db, db);
  }

  static async open(options: PgliteSqlOptions = {}): Promise<PgliteSql> {
    const releaseLock = options.dataDir ? await acquireDataDirLock(options.dataDir) : async () => {};
    try {
      const db = await PGlite.create(options.dataDir, { extensions: { vector, pg_trgm } });
      return new PgliteSql(db, releaseLock);
    } catch (error) {
      await releaseLock();
      throw translateDatabaseError(error);
    }
  }

  /** Inside withWorkspaceScope(), the transaction first switches to the walled-in role. */
  async transaction<T>(work: (tx: SqlExecutor) => Promise<T>, options: QueryOptions = {}): Promise<T> {
    if (options.signal?.aborted) throw abortedError(options.signal.reason);
    if (this.db.closed) throw closedDatabaseError();
    const workspaceId = currentWorkspaceScope();
    try {
      return await this.db.transaction(async (tx) => {
        if (workspaceId !== undefined) await tx.query(SCOPE_STATEMENT, [workspaceId]);
        return work(new PgliteExecutor(tx, this.db));
      });
    } catch (error) {
      throw this.db.closed ? closedDatabaseError() : translateDatabaseError(error);
    }
  }

  async close(): Promise<void> {
    if (!this.db.closed) await this.db.close();
    await this.releaseLock();
  }
}
