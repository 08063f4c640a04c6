import pg from 'pg';
import { SOCKET_PORT } from './embedded/socket.js';
import { ScopedSql } from './scoped-sql.js';
import type { QueryOptions, QueryResult, SqlBackend, SqlExecutor, SqlRow } from './sql.js';
import { abortedError, translateDatabaseError } from './translate-error.js';
import { currentWorkspaceScope, scopedBeginText } from './workspace-scope.js';

export interface PostgresSqlOptions {
  /** A server's URL; or `socketDir` for a local socket (the embedded database's server). */
  connectionString?: string;
  socketDir?: string;
  maxConnections?: number;
  applicationName?: string;
  /** What answers: a Postgres server, or PGlite behind the embedded server's socket. */
  backend?: SqlBackend;
  /** Runs after the pool has ended (the embedded server stops with its owner's pool). */
  onClose?: () => Promise<void>;
}

// bigint (int8) and numeric come back as strings from node-postgres; our counts and ids fit in a
// double, and PGlite is configured the same way, so both backends return numbers.
const typeParsers = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === pg.types.builtins.INT8 || oid === pg.types.builtins.NUMERIC)
      return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format);
  },
};

/** Statements on the pool (any free connection) or on one checked-out client (a transaction). */
class PgExecutor implements SqlExecutor {
  constructor(private readonly target: pg.Pool | pg.PoolClient) {}

  async query<Row extends SqlRow = SqlRow>(
    text: string,
    params: readonly unknown[] = [],
    options: QueryOptions = {},
  ): Promise<QueryResult<Row>> {
    if (options.signal?.aborted) throw abortedError(options.signal.reason);
    try {
      const result = await this.target.query<Row>({ text, values: [...params], types: typeParsers });
      return { rows: result.rows, rowCount: result.rowCount ?? result.rows.length };
    } catch (error) {
      throw translateDatabaseError(error);
    }
  }

  async exec(script: string): Promise<void> {
    try {
      await this.target.query(script);
    } catch (error) {
      throw translateDatabaseError(error);
    }
  }
}

/** node-postgres pool; used whenever DATABASE_URL is set. */
export class PostgresSql extends ScopedSql {
  readonly backend: SqlBackend;
  private readonly pool: pg.Pool;
  protected readonly executor: PgExecutor;
  private readonly onClose: (() => Promise<void>) | undefined;

  constructor(options: PostgresSqlOptions) {
    super();
    this.backend = options.backend ?? 'postgres';
    this.onClose = options.onClose;
    const target = options.socketDir
      ? { host: options.socketDir, port: SOCKET_PORT, user: 'postgres', database: 'postgres' }
      : { connectionString: options.connectionString };
    this.pool = new pg.Pool({
      ...target,
      max: options.maxConnections ?? 10,
      application_name: options.applicationName ?? 'agentic-rag',
    });
    // An idle client losing its connection must not crash the process; the next query reconnects.
    this.pool.on('error', () => {});
    this.executor = new PgExecutor(this.pool);
  }

  /**
   * Inside withWorkspaceScope(), `BEGIN` and the switch to the walled-in role go in one round
   * trip; a scoped query() is then three (begin and scope, statement, commit) instead of one.
   */
  async transaction<T>(work: (tx: SqlExecutor) => Promise<T>, options: QueryOptions = {}): Promise<T> {
    if (options.signal?.aborted) throw abortedError(options.signal.reason);
    const workspaceId = currentWorkspaceScope();
    const begin = workspaceId === undefined ? 'BEGIN' : scopedBeginText(workspaceId);
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (error) {
      throw translateDatabaseError(error);
    }
    let broken = false;
    // A checked-out client is no longer covered by the pool's idle listener: a server that goes
    // away between two statements of this transaction (a restart, an admin shutdown) would
    // otherwise emit an unhandled 'error' and end the process. The statement in flight fails on
    // its own; this only keeps the event from being fatal, and the client is not reused.
    const onError = () => {
      broken = true;
    };
    client.on('error', onError);
    try {
      await client.query(begin);
      const result = await work(new PgExecutor(client));
      await client.query('COMMIT');
      return result;
    } catch (error) {
      try {
        await client.query('ROLLBACK');
      } catch {
        broken = true;
      }
      throw translateDatabaseError(error);
    } finally {
      client.off('error', onError);
      client.release(broken);
    }
  }

  async close(): Promise<void> {
    try {
      await this.pool.end();
    } finally {
      await this.onClose?.();
    }
  }
}
