import { ErrorCode, toRagError } from '../../errors/index.js';
import { routedReads, silentLogger, type Logger } from '../../telemetry/index.js';
import type { QueryOptions, QueryResult, Sql, SqlBackend, SqlExecutor, SqlRow } from '../sql.js';
import { currentReadConsistency, type ReadConsistency } from './read-consistency.js';

export interface ReadRoutingSqlOptions {
  /** Where writes go, and every read the replica cannot serve. Not closed by close(). */
  primary: Sql;
  /** A streaming replica (hot standby) of the primary. Closed by close(). */
  replica: Sql;
  logger?: Logger;
  /** How long a replica's corpus version that is too old is trusted before asking again. */
  staleVersionMs?: number;
  /** How long a replica's corpus version that was new enough is trusted (see versionFor). */
  freshVersionMs?: number;
  /** A replica slower than this to say its version is treated as unreachable. */
  probeTimeoutMs?: number;
  /** After the replica failed, how long every read goes to the primary before it is tried again. */
  retryAfterMs?: number;
}

export type ReadTarget = 'replica' | 'primary';

/** Statements (or transactions) sent to each side, and reads the replica failed and the primary ran. */
export interface ReadRoutingStats {
  replica: number;
  primary: number;
  fallbacks: number;
  /** True while the replica is skipped after a failure. */
  replicaDown: boolean;
}

const REPLICA_VERSION = 'SELECT corpus_version FROM rag_workspaces WHERE id = $1';
/** read_only_sql_transaction: what a hot standby answers to any write. */
const READ_ONLY = '25006';

/**
 * A `Sql` that serves reads from a streaming replica when the replica is known to hold what the
 * read needs, and from the primary otherwise; see read-consistency.ts for what "needs" means.
 *
 * - Outside withCorpusVersion() everything goes to the primary: writes, migrations, and any read
 *   that did not say which version it needs. exec() (scripts) always does.
 * - Inside, a request's first read asks the replica for the workspace's corpus_version (one
 *   indexed row; cached briefly) and the request sticks to that answer: replica when it has
 *   replayed the needed version, else primary. Sticking matters beyond saving probes: the answer
 *   cache keys an answer by the corpus version read at its start, so the rest of the request must
 *   read the same side (a replica that catches up halfway could otherwise fill a key for version
 *   v with chunks of an older one).
 * - A write that slips into a routed read is refused by the standby (25006) and runs on the
 *   primary; a replica that errors or does not answer sends the read, and the rest of the request,
 *   to the primary. An unreachable replica is skipped for `retryAfterMs` and logged once.
 */
export class ReadRoutingSql implements Sql {
  readonly backend: SqlBackend;
  private readonly primary: Sql;
  private readonly replica: Sql;
  private readonly logger: Logger;
  private readonly staleVersionMs: number;
  private readonly freshVersionMs: number;
  private readonly probeTimeoutMs: number;
  private readonly retryAfterMs: number;
  private readonly versions = new Map<string, { version: number; at: number }>();
  private readonly probes = new Map<string, Promise<number>>();
  private downUntil = 0;
  private readonly counts = { replica: 0, primary: 0, fallbacks: 0 };

  constructor(options: ReadRoutingSqlOptions) {
    this.primary = options.primary;
    this.replica = options.replica;
    this.backend = options.primary.backend;
    this.logger = options.logger ?? silentLogger;
    this.staleVersionMs = options.staleVersionMs ?? 5;
    this.freshVersionMs = options.freshVersionMs ?? 1000;
    this.probeTimeoutMs = options.probeTimeoutMs ?? 1000;
    this.retryAfterMs = options.retryAfterMs ?? 5000;
  }

  stats(): ReadRoutingStats {
    return { ...this.counts, replicaDown: Date.now() < this.downUntil };
  }

  async query<Row extends SqlRow = SqlRow>(
    text: string,
    params?: readonly unknown[],
    options?: QueryOptions,
  ): Promise<QueryResult<Row>> {
    return this.route((sql) => sql.query<Row>(text, params, options));
  }

  exec(script: string): Promise<void> {
    this.counts.primary += 1;
    return this.primary.exec(script);
  }

  transaction<T>(work: (tx: SqlExecutor) => Promise<T>, options?: QueryOptions): Promise<T> {
    return this.route((sql) => sql.transaction(work, options));
  }

  /** Closes the replica's pool; the primary belongs to whoever opened it. */
  async close(): Promise<void> {
    await this.replica.close();
  }

  private async route<T>(run: (sql: Sql) => Promise<T>): Promise<T> {
    const read = currentReadConsistency();
    const target = read ? await (read.decision ??= this.decide(read)) : 'primary';
    if (target === 'primary') {
      this.counts.primary += 1;
      if (read) routedReads.inc({ target: 'primary' });
      return run(this.primary);
    }
    try {
      const result = await run(this.replica);
      this.counts.replica += 1;
      routedReads.inc({ target: 'replica' });
      return result;
    } catch (error) {
      const failure = toRagError(error);
      if (failure.code === ErrorCode.ABORTED) throw failure;
      this.counts.fallbacks += 1;
      this.counts.primary += 1;
      routedReads.inc({ target: 'fallback' });
      read!.decision = Promise.resolve('primary');
      if (failure.code === ErrorCode.STORE_UNAVAILABLE) this.markDown(failure);
      else if (failure.details?.sqlState !== READ_ONLY)
        this.logger.debug('replica read failed; read from the primary', {
          event: 'replica-read-failed',
          error: failure,
        });
      return run(this.primary);
    }
  }

  private async decide(read: ReadConsistency): Promise<ReadTarget> {
    if (Date.now() < this.downUntil) return 'primary';
    try {
      const replayed = await this.versionFor(read.workspaceId, read.version);
      if (this.downUntil !== 0) {
        this.downUntil = 0;
        this.logger.info('replica answers again; reads go to it', { event: 'replica-recovered' });
      }
      return replayed >= read.version ? 'replica' : 'primary';
    } catch (error) {
      this.markDown(toRagError(error));
      return 'primary';
    }
  }

  /**
   * The workspace's corpus version on the replica. A version too old for this read is asked again
   * after a few ms (the replica is catching up); one new enough is trusted for longer, because a
   * replica's replay only moves forward: what it held a second ago, it still holds.
   */
  private async versionFor(workspaceId: string, needed: number): Promise<number> {
    const cached = this.versions.get(workspaceId);
    const age = cached ? Date.now() - cached.at : Infinity;
    if (cached && age < (cached.version >= needed ? this.freshVersionMs : this.staleVersionMs))
      return cached.version;
    let probe = this.probes.get(workspaceId);
    if (!probe) {
      probe = this.probe(workspaceId).finally(() => this.probes.delete(workspaceId));
      this.probes.set(workspaceId, probe);
    }
    return probe;
  }

  private async probe(workspaceId: string): Promise<number> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`the replica did not answer within ${this.probeTimeoutMs} ms`)),
        this.probeTimeoutMs,
      );
    });
    try {
      const result = await Promise.race([
        this.replica.query<{ corpus_version: number }>(REPLICA_VERSION, [workspaceId]),
        timeout,
      ]);
      const version = Number(result.rows[0]?.corpus_version ?? 0);
      this.versions.set(workspaceId, { version, at: Date.now() });
      return version;
    } finally {
      clearTimeout(timer);
    }
  }

  private markDown(error: unknown): void {
    const wasUp = Date.now() >= this.downUntil;
    this.downUntil = Date.now() + this.retryAfterMs;
    if (wasUp)
      this.logger.warn('replica unavailable; reads go to the primary', {
        event: 'replica-unavailable',
        retryAfterMs: this.retryAfterMs,
        error: toRagError(error),
      });
  }
}
