import type { PostgresSql } from '../postgres.js';
import type { QueryOptions, QueryResult, Sql, SqlExecutor, SqlRow } from '../sql.js';

/** The connection could not even be made: nothing was sent, so the call can simply run again. */
const NOT_SENT = new Set(['ECONNREFUSED', 'ENOENT']);
/** The owner's server is gone (refused, missing, or dropped us mid-call). */
const OWNER_GONE = new Set(['ECONNREFUSED', 'ENOENT', 'ECONNRESET', 'EPIPE']);

function causeCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; current && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && OWNER_GONE.has(code)) return code;
    const message = current instanceof Error ? current.message : '';
    if (/Connection terminated/i.test(message)) return 'ECONNRESET';
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * The embedded database as one process sees it. When the process that owned the directory stops,
 * its clients do not stay broken: the next call takes the directory over (or connects to whoever
 * did first) and, if its own connection was never made, runs again there. A call that may have
 * reached the old owner fails with STORE_UNAVAILABLE (retryable) rather than risk running twice.
 */
export class EmbeddedSql implements Sql {
  readonly backend = 'pglite' as const;
  private current: Promise<PostgresSql>;
  private closed = false;

  constructor(
    first: PostgresSql,
    private readonly reconnect: () => Promise<PostgresSql>,
  ) {
    this.current = Promise.resolve(first);
  }

  query<Row extends SqlRow = SqlRow>(
    text: string,
    params?: readonly unknown[],
    options?: QueryOptions,
  ): Promise<QueryResult<Row>> {
    return this.run((sql) => sql.query<Row>(text, params, options));
  }

  exec(script: string): Promise<void> {
    return this.run((sql) => sql.exec(script));
  }

  transaction<T>(work: (tx: SqlExecutor) => Promise<T>, options?: QueryOptions): Promise<T> {
    return this.run((sql) => sql.transaction(work, options));
  }

  private async run<T>(call: (sql: PostgresSql) => Promise<T>): Promise<T> {
    const sql = await this.current;
    try {
      return await call(sql);
    } catch (error) {
      const code = causeCode(error);
      if (this.closed || code === undefined) throw error;
      await this.replace(sql);
      if (!NOT_SENT.has(code)) throw error;
      return call(await this.current);
    }
  }

  /** One takeover however many calls noticed the owner had gone. */
  private async replace(stale: PostgresSql): Promise<void> {
    if ((await this.current.catch(() => stale)) !== stale) return;
    const next = this.reconnect();
    this.current = next;
    try {
      await next;
      await stale.close().catch(() => {});
    } catch {
      // No owner to be or reach yet: the next call fails the same way and tries again.
      this.current = Promise.resolve(stale);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    await (await this.current).close();
  }
}
