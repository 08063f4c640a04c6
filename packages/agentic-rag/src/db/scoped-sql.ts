import type { QueryOptions, QueryResult, Sql, SqlBackend, SqlExecutor, SqlRow } from './sql.js';
import { currentWorkspaceScope } from './workspace-scope.js';

/**
 * query() and exec() of a Sql that owns its connection: outside withWorkspaceScope() a statement
 * runs as it is; inside, in a transaction of its own, since only a transaction can enter the scope.
 */
export abstract class ScopedSql implements Sql {
  abstract readonly backend: SqlBackend;
  /** Runs statements outside any transaction. */
  protected abstract readonly executor: SqlExecutor;

  abstract transaction<T>(work: (tx: SqlExecutor) => Promise<T>, options?: QueryOptions): Promise<T>;
  abstract close(): Promise<void>;

  query<Row extends SqlRow = SqlRow>(
    text: string,
    params?: readonly unknown[],
    options?: QueryOptions,
  ): Promise<QueryResult<Row>> {
    if (currentWorkspaceScope() === undefined) return this.executor.query<Row>(text, params, options);
    return this.transaction((tx) => tx.query<Row>(text, params, options), options);
  }

  exec(script: string): Promise<void> {
    if (currentWorkspaceScope() === undefined) return this.executor.exec(script);
    return this.transaction((tx) => tx.exec(script));
  }
}
