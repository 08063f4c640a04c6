import { createHash, timingSafeEqual } from 'node:crypto';
import { createRateLimiter, type ApiKeyStore, type RateLimiter } from '../auth/index.js';
import type { Config } from '../config/index.js';
import { ErrorCode, RagError } from '../errors/index.js';
import type { RagRuntime } from '../runtime/index.js';
import { watchQueue, type Logger } from '../telemetry/index.js';
import * as admin from './admin.js';
import * as answers from './answers.js';
import * as crawls from './crawls.js';
import * as evalReports from './eval-runs.js';
import type { AuditLog } from './audit.js';
import { ANONYMOUS, type Caller } from './caller.js';
import { OperationGate } from './gate.js';
import * as knowledge from './knowledge.js';
import type { CallOptions } from './operation-host.js';
import type { Operation } from './permissions.js';
import * as reads from './reads.js';
import * as textbook from './textbook.js';
import * as writes from './writes.js';

export type { CallOptions, GuardOptions, OperationContext } from './operation-host.js';

/** An operation's input type: what its module's function takes after the host and the caller. */
type InputOf<Operation extends (host: never, caller: never, input: never, ...rest: never[]) => unknown> =
  Parameters<Operation>[2];

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * The one application layer. Every transport (GraphQL, REST, MCP, the CLIs, the API's start-up)
 * authenticates the caller here and calls an operation by name; each operation runs through the
 * gate (gate.ts: role, workspace scope and existence, row-level security, audit). The operations
 * live in reads.ts, writes.ts, crawls.ts, knowledge.ts, admin.ts, answers.ts, textbook.ts and
 * eval-runs.ts; the runtime they run on is nobody else's to touch.
 */
export class RagService {
  /** The one validated configuration, for the transports' own limits and defaults. */
  readonly config: Config;
  readonly logger: Logger;
  private readonly gate: OperationGate;
  /** Per client address: keys presented that this process has not proven yet (each an scrypt). */
  private readonly proofLimiter: RateLimiter | null;
  private readonly metricsToken: Buffer | null;

  constructor(
    runtime: RagRuntime,
    options: { keys?: ApiKeyStore; limiter?: RateLimiter | null; proofLimiter?: RateLimiter | null } = {},
  ) {
    const { config } = runtime;
    this.config = config;
    this.logger = runtime.logger;
    const limiter =
      options.limiter !== undefined
        ? options.limiter
        : config.RATE_LIMIT_PER_SECOND > 0
          ? createRateLimiter({
              perSecond: config.RATE_LIMIT_PER_SECOND,
              burst: config.RATE_LIMIT_BURST,
              redisUrl: config.REDIS_URL,
              prefix: `${config.AGENTIC_RAG_QUEUE_NAME}:rate`,
            })
          : null;
    this.gate = new OperationGate(runtime, limiter, options.keys);
    this.proofLimiter =
      options.proofLimiter !== undefined
        ? options.proofLimiter
        : config.AUTH_PROOFS_PER_MINUTE > 0
          ? createRateLimiter({
              perSecond: config.AUTH_PROOFS_PER_MINUTE / 60,
              burst: config.AUTH_PROOF_BURST,
              redisUrl: config.REDIS_URL,
              prefix: `${config.AGENTIC_RAG_QUEUE_NAME}:proof`,
            })
          : null;
    this.metricsToken = config.METRICS_TOKEN ? digest(config.METRICS_TOKEN) : null;
  }

  /**
   * The key and audit stores, for tests that set up keys and read audit records. Transports and
   * commands use the operations (createApiKey, auditLog, ...): test/architecture.test.ts keeps it so.
   */
  get keys(): ApiKeyStore {
    return this.gate.keys;
  }

  get audit(): AuditLog {
    return this.gate.audit;
  }

  get authEnabled(): boolean {
    return this.config.AGENTIC_RAG_AUTH === 'on';
  }

  /** False when AGENTIC_RAG_ENABLED=false: the operations that serve knowledge refuse. */
  get ragEnabled(): boolean {
    return this.config.AGENTIC_RAG_ENABLED;
  }

  /** Which database this deployment runs on (postgres, pglite), for its start-up log. */
  get backend(): string {
    return this.gate.runtime.sql.backend;
  }

  /** The workspace a request that names none reads (AGENTIC_RAG_WORKSPACE). */
  get defaultWorkspace(): string {
    return this.config.AGENTIC_RAG_WORKSPACE;
  }

  /**
   * The caller behind an `Authorization` header (or a bare key): UNAUTHENTICATED when there is
   * none, or it is unknown, malformed or revoked, alike; RATE_LIMITED when the key spent its
   * budget, or its address presented too many keys this process had not proven (see
   * ApiKeyStore.verify). With AGENTIC_RAG_AUTH=off every caller is an unscoped admin.
   */
  async authenticate(authorization: string | null | undefined, client = 'unknown'): Promise<Caller> {
    if (!this.authEnabled) return ANONYMOUS;
    const presented = bearerToken(authorization);
    if (!presented) {
      throw new RagError(
        ErrorCode.UNAUTHENTICATED,
        'an API key is required: send Authorization: Bearer <key>',
      );
    }
    const record = await this.gate.keys.verify(presented, () => this.admitProof(client));
    if (!record) throw new RagError(ErrorCode.UNAUTHENTICATED, 'the API key is not valid');
    const caller: Caller = {
      keyId: record.id,
      actor: `key:${record.id}`,
      role: record.role,
      scope: record.workspaceId,
      request: { operations: 0 },
    };
    await this.gate.admit(caller);
    return caller;
  }

  /**
   * Puts this deployment's ingest queue depth into /metrics (queued, active, failed jobs, read at
   * each scrape); the returned function takes it out. Nothing to watch without a queue.
   */
  watchQueueDepth(): () => void {
    const queue = this.gate.runtime.queue;
    return queue ? watchQueue(() => queue.counts()) : () => {};
  }

  /** True when `authorization` carries METRICS_TOKEN (a scraper's credential for /metrics only). */
  isMetricsToken(authorization: string | null | undefined): boolean {
    const presented = bearerToken(authorization);
    return (
      this.metricsToken !== null &&
      presented !== null &&
      timingSafeEqual(digest(presented), this.metricsToken)
    );
  }

  /** FORBIDDEN unless the caller's role reaches the operation's (for /metrics, which is no read). */
  authorize(caller: Caller, operation: Operation): void {
    this.gate.authorize(caller, operation);
  }

  /** Takes one unproven key from the client address's bucket. */
  private async admitProof(client: string): Promise<void> {
    if (!this.proofLimiter) return;
    const { allowed, retryAfterSeconds } = await this.proofLimiter.take(client);
    if (!allowed) {
      throw new RagError(
        ErrorCode.RATE_LIMITED,
        `too many API keys to verify from this address: retry in ${retryAfterSeconds} s`,
        { details: { retryAfterSeconds } },
      );
    }
  }

  // The operations, by name: each validates its input and runs through guard.
  search = (caller: Caller, input: InputOf<typeof reads.search>, options?: CallOptions) =>
    reads.search(this.gate, caller, input, options);
  answer = (caller: Caller, input: InputOf<typeof answers.answer>, options?: answers.AnswerCallOptions) =>
    answers.answer(this.gate, caller, input, options);
  /** ragAnswer as events (stage progress, text pieces, citations, then the result); see answers.ts. */
  answerStream = (caller: Caller, input: InputOf<typeof answers.answerStream>, options?: CallOptions) =>
    answers.answerStream(this.gate, caller, input, options);
  getDocument = (caller: Caller, input: InputOf<typeof reads.getDocument>, options?: CallOptions) =>
    reads.getDocument(this.gate, caller, input, options);
  documentContent = (caller: Caller, input: InputOf<typeof reads.documentContent>, options?: CallOptions) =>
    reads.documentContent(this.gate, caller, input, options);
  listDocuments = (caller: Caller, input: InputOf<typeof reads.listDocuments>, options?: CallOptions) =>
    reads.listDocuments(this.gate, caller, input, options);
  documentChunks = (caller: Caller, input: InputOf<typeof reads.documentChunks>, options?: CallOptions) =>
    reads.documentChunks(this.gate, caller, input, options);
  corpus = (caller: Caller, input: InputOf<typeof reads.corpus>, options?: CallOptions) =>
    reads.corpus(this.gate, caller, input, options);
  entity = (caller: Caller, input: InputOf<typeof reads.entity>, options?: CallOptions) =>
    reads.entity(this.gate, caller, input, options);
  expandGraph = (caller: Caller, input: InputOf<typeof reads.expandGraph>, options?: CallOptions) =>
    reads.expandGraph(this.gate, caller, input, options);
  findEndpoints = (caller: Caller, input: InputOf<typeof reads.endpoints>, options?: CallOptions) =>
    reads.endpoints(this.gate, caller, input, options);
  job = (caller: Caller, input: InputOf<typeof reads.job>) => reads.job(this.gate, caller, input);
  listJobs = (caller: Caller, input: InputOf<typeof reads.listJobs>, options?: CallOptions) =>
    reads.listJobs(this.gate, caller, input, options);
  listWorkspaces = (caller: Caller) => reads.listWorkspaces(this.gate, caller);
  ingest = (caller: Caller, input: InputOf<typeof writes.ingest>, options?: writes.IngestCallOptions) =>
    writes.ingest(this.gate, caller, input, options);
  crawlSite = (caller: Caller, input: InputOf<typeof crawls.crawlSite>, options?: crawls.CrawlCallOptions) =>
    crawls.crawlSite(this.gate, caller, input, options);
  ingestKnowledge = (
    caller: Caller,
    input: InputOf<typeof knowledge.ingestKnowledge>,
    options?: CallOptions,
  ) => knowledge.ingestKnowledge(this.gate, caller, input, options);
  waitForJobs = (
    caller: Caller,
    input: Parameters<typeof reads.waitForJobs>[2],
    options?: Parameters<typeof reads.waitForJobs>[3],
  ) => reads.waitForJobs(this.gate, caller, input, options);
  deleteDocument = (caller: Caller, input: InputOf<typeof writes.deleteDocument>, options?: CallOptions) =>
    writes.deleteDocument(this.gate, caller, input, options);
  refreshDocument = (caller: Caller, input: InputOf<typeof writes.refreshDocument>, options?: CallOptions) =>
    writes.refreshDocument(this.gate, caller, input, options);
  resumeIngest = (caller: Caller, input: InputOf<typeof writes.resumeIngest>, options?: CallOptions) =>
    writes.resumeIngest(this.gate, caller, input, options);
  refreshUrl = (caller: Caller, input: InputOf<typeof writes.refreshUrl>, options?: CallOptions) =>
    writes.refreshUrl(this.gate, caller, input, options);
  /** Readiness details for an entitled prober: the backend and the default workspace's size. */
  status = () => reads.deploymentStatus(this.gate);
  bootstrapAdminKey = () => admin.bootstrapAdminKey(this.gate);
  createApiKey = (caller: Caller, input: InputOf<typeof admin.createApiKey>) =>
    admin.createApiKey(this.gate, caller, input);
  revokeApiKey = (caller: Caller, input: InputOf<typeof admin.revokeApiKey>) =>
    admin.revokeApiKey(this.gate, caller, input);
  listApiKeys = (caller: Caller, input?: InputOf<typeof admin.listApiKeys>) =>
    admin.listApiKeys(this.gate, caller, input);
  deadLetters = (caller: Caller, input?: InputOf<typeof admin.deadLetters>) =>
    admin.deadLetters(this.gate, caller, input);
  retryDeadLetters = (caller: Caller, input?: InputOf<typeof admin.retryDeadLetters>) =>
    admin.retryDeadLetters(this.gate, caller, input);
  purgeDeadLetters = (caller: Caller) => admin.purgeDeadLetters(this.gate, caller);
  auditLog = (caller: Caller, input: InputOf<typeof admin.auditLog>) =>
    admin.auditLog(this.gate, caller, input);
  evalRuns = (caller: Caller, input: InputOf<typeof evalReports.evalRuns> = {}) =>
    evalReports.evalRuns(this.gate, caller, input);
  evalRun = (caller: Caller, input: InputOf<typeof evalReports.evalRun>) =>
    evalReports.evalRun(this.gate, caller, input);
  // The REST contract's reads of numbered entities (docs/rest-contract.md), with their corpus version.
  textbookEntity = (
    caller: Caller,
    input: Parameters<typeof textbook.textbookEntity>[2],
    options?: textbook.CachedReadOptions,
  ) => textbook.textbookEntity(this.gate, caller, input, options);
  textbookSearch = (
    caller: Caller,
    input: Parameters<typeof textbook.textbookSearch>[2],
    options?: textbook.CachedReadOptions,
  ) => textbook.textbookSearch(this.gate, caller, input, options);
  textbookExpand = (
    caller: Caller,
    input: Parameters<typeof textbook.textbookExpand>[2],
    options?: textbook.CachedReadOptions,
  ) => textbook.textbookExpand(this.gate, caller, input, options);

  async close(): Promise<void> {
    await this.gate.close();
    await this.proofLimiter?.close();
  }
}

function bearerToken(authorization: string | null | undefined): string | null {
  if (typeof authorization !== 'string' || authorization.length > 4096) return null;
  return BEARER.exec(authorization)?.[1] ?? null;
}

const digest = (value: string) => createHash('sha256').update(value).digest();
