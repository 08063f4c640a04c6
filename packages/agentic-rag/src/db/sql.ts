export type SqlRow = Record<string, unknown>;

export interface QueryResult<Row extends SqlRow = SqlRow> {
  rows: Row[];
  /** Rows returned or affected. */
  rowCount: number;
}

export interface QueryOptions {
  /** Checked before the statement is sent; a statement already running is not interrupted. */
  signal?: AbortSignal;
}

/** What a statement runs on: the pool/database itself or an open transaction. */
export interface SqlExecutor {
  query<Row extends SqlRow = SqlRow>(
    text: string,
    params?: readonly unknown[],
    options?: QueryOptions,
  ): Promise<QueryResult<Row>>;
  /** Runs a parameterless multi-statement script (migrations). */
  exec(script: string): Promise<void>;
}

export type SqlBackend = 'postgres' | 'pglite';

/**
 * One interface over node-postgres (a server) and PGlite (embedded). Both speak the same SQL, so
 * everything above this line is written once. bigint columns come back as JS numbers on both.
 * Inside withWorkspaceScope() every statement and transaction runs as the application role,
 * walled into that workspace by row-level security (see workspace-scope.ts).
 */
export interface Sql extends SqlExecutor {
  readonly backend: SqlBackend;
  /** Commits when `work` resolves, rolls back when it throws. */
  transaction<T>(work: (tx: SqlExecutor) => Promise<T>, options?: QueryOptions): Promise<T>;
  close(): Promise<void>;
}
