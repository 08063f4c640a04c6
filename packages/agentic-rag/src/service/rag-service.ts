import { createHash, timingSafeEqual } from 'node:crypto';
import { ApiKeyStore, createRateLimiter, roleAllows, type RateLimiter } from '../auth/index.js';
import { withWorkspaceScope } from '../db/index.js';
import { ErrorCode, RagError, toRagError } from '../errors/index.js';
import type { RagRuntime } from '../runtime/index.js';
import { silentLogger } from '../telemetry/index.js';
import { AuditLog } from './audit.js';
import type { CallOptions, GuardOptions, OperationContext, OperationHost } from './operation-host.js';
import * as admin from './admin.js';
import * as answers from './answers.js';
import * as evalReports from './eval-runs.js';
import { ANONYMOUS, inScope, missingWorkspace, type Caller } from './caller.js';
import { corpusVersionInput, parseInput, WorkspaceIdSchema } from './inputs.js';
import { OPERATIONS, type Operation } from './permissions.js';
import * as reads from './reads.js';
import * as textbook from './textbook.js';
import * as writes from './writes.js';

export type { CallOptions, GuardOptions, OperationContext } from './operation-host.js';

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * The one application layer. Every transport (GraphQL, REST, MCP, the CLIs) authenticates the
 * caller here, then runs operations through `guard`, which checks the role and the workspace
 * scope, validates the workspace, runs the work with the database's row-level security set to
 * that workspace and audits writes. The operations themselves live in reads.ts, writes.ts and
 * admin.ts (eval-runs.ts reads the eval reports on disk).
 */
export class RagService implements OperationHost {
  readonly keys: ApiKeyStore;
  readonly audit: AuditLog;
  private readonly limiter: RateLimiter | null;
  /** Per client address: keys presented that this process has not proven yet (each an scrypt). */
  private readonly proofLimiter: RateLimiter | null;
  private readonly metricsToken: Buffer | null;

  constructor(
    readonly runtime: RagRuntime,
    options: { keys?: ApiKeyStore; limiter?: RateLimiter | null; proofLimiter?: RateLimiter | null } = {},
  ) {
    const { config } = runtime;
    this.keys = options.keys ?? new ApiKeyStore(runtime.sql);
    this.audit = new AuditLog(runtime.sql);
    this.limiter =
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

  get authEnabled(): boolean {
    return this.runtime.config.AGENTIC_RAG_AUTH === 'on';
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
    const record = await this.keys.verify(presented, () => this.admitProof(client));
    if (!record) throw new RagError(ErrorCode.UNAUTHENTICATED, 'the API key is not valid');
    const caller: Caller = {
      keyId: record.id,
      actor: `key:${record.id}`,
      role: record.role,
      scope: record.workspaceId,
      request: { operations: 0 },
    };
    await this.admit(caller);
    return caller;
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

  /**
   * Rate limits count operations, not HTTP requests: the authentication paid for a request's
   * first operation, every further one takes its own token (an MCP batch of 100 calls costs 100).
   */
  private async chargeOperation(caller: Caller): Promise<void> {
    if (!caller.request) return;
    caller.request.operations += 1;
    if (caller.request.operations > 1) await this.admit(caller);
  }

  /** Takes one request from the key's token bucket. */
  async admit(caller: Caller): Promise<void> {
    if (!this.limiter || caller.keyId === null) return;
    const { allowed, retryAfterSeconds } = await this.limiter.take(caller.keyId);
    if (!allowed) {
      throw new RagError(ErrorCode.RATE_LIMITED, `rate limit reached: retry in ${retryAfterSeconds} s`, {
        details: { retryAfterSeconds },
      });
    }
  }

  /** FORBIDDEN unless the caller's role reaches the operation's. */
  authorize(caller: Caller, operation: Operation): void {
    const needed = OPERATIONS[operation].role;
    if (!roleAllows(caller.role, needed)) {
      throw new RagError(
        ErrorCode.FORBIDDEN,
        `a ${caller.role} key cannot run ${operation}: it needs a ${needed} key`,
      );
    }
    if ('everyWorkspace' in OPERATIONS[operation] && caller.scope !== '*') {
      throw new RagError(
        ErrorCode.FORBIDDEN,
        `${operation} covers every workspace: it needs an admin key for every workspace (*)`,
      );
    }
  }

  /**
   * Runs `work` on a workspace for the caller: role, scope (a workspace outside it answers like
   * one that does not exist), existence, row-level security, audit.
   */
  async guard<T>(
    caller: Caller,
    operation: Operation,
    workspaceId: unknown,
    work: (context: OperationContext) => Promise<T>,
    options: GuardOptions = {},
  ): Promise<T> {
    const audited = OPERATIONS[operation].writes;
    const claimed = typeof workspaceId === 'string' ? workspaceId : null;
    try {
      await this.chargeOperation(caller);
      this.enabled(operation);
      this.authorize(caller, operation);
      const id = parseInput(WorkspaceIdSchema, workspaceId);
      if (!inScope(caller, id)) throw missingWorkspace(id);
      const exists = (await this.runtime.store.corpusVersion(id)) > 0;
      if (!exists) {
        const mayCreate = options.workspace === 'create' && (caller.role === 'admin' || caller.scope === id);
        if (!mayCreate) throw missingWorkspace(id);
      }
      const context: OperationContext = {
        runtime: this.runtime,
        caller,
        workspaceId: id,
        signal: options.signal,
        logger: options.logger ?? this.runtime.logger,
      };
      const result = await withWorkspaceScope(databaseScope(caller, id), () => work(context));
      if (audited) await this.record(caller, operation, claimed, options.target ?? null, 'ok');
      return result;
    } catch (error) {
      if (audited)
        await this.record(caller, operation, claimed, options.target ?? null, toRagError(error).code);
      throw error;
    }
  }

  /**
   * Runs an operation that spans the deployment (keys, dead letters, the audit log): role check
   * and audit; `scope` is the workspace it touches when it touches one (checked against the
   * caller's scope), null when it touches many (the work filters by the caller's scope).
   */
  async guardDeployment<T>(
    caller: Caller,
    operation: Operation,
    work: () => Promise<T>,
    options: { target?: string | null; workspaceId?: string | null } = {},
  ): Promise<T> {
    const audited = OPERATIONS[operation].writes;
    try {
      await this.chargeOperation(caller);
      this.authorize(caller, operation);
      const result = await work();
      if (audited)
        await this.record(caller, operation, options.workspaceId ?? null, options.target ?? null, 'ok');
      return result;
    } catch (error) {
      if (audited) {
        const code = toRagError(error).code;
        await this.record(caller, operation, options.workspaceId ?? null, options.target ?? null, code);
      }
      throw error;
    }
  }

  /**
   * Inside `guard`'s work: runs a read (search, answer) that may be served by a replica, at no
   * older a corpus version than the one the client presents (a write's `corpusVersion`; INVALID_INPUT
   * unless an integer ≥ 0, named `name` in the message) and the ones this process wrote.
   */
  readAtLeast<T>(
    context: OperationContext,
    presented: unknown,
    work: () => Promise<T>,
    name = 'minCorpusVersion',
  ): Promise<T> {
    const version = presented == null ? null : parseInput(corpusVersionInput(name), presented);
    return reads.atCorpusVersion(context, version, work);
  }

  private enabled(operation: Operation): void {
    if (!this.runtime.config.AGENTIC_RAG_ENABLED && 'serves' in OPERATIONS[operation]) {
      throw new RagError(
        ErrorCode.RAG_DISABLED,
        'RAG is disabled on this deployment (AGENTIC_RAG_ENABLED=false)',
      );
    }
  }

  private async record(
    caller: Caller,
    operation: Operation,
    workspaceId: string | null,
    target: string | null,
    outcome: string,
  ): Promise<void> {
    try {
      await this.audit.record({
        keyId: caller.keyId,
        actor: caller.actor,
        operation,
        // Only a well-formed id is kept: the audit log is not a place for a caller's garbage.
        workspaceId:
          workspaceId !== null && WorkspaceIdSchema.safeParse(workspaceId).success ? workspaceId : null,
        target: target === null ? null : printable(target.slice(0, 500)),
        outcome,
      });
    } catch (error) {
      // A write that happened must not be reported as failed because its audit row was not.
      (this.runtime.logger ?? silentLogger).error('audit record failed', {
        event: 'audit-failed',
        operation,
        error: toRagError(error),
      });
    }
  }

  // The operations, by name: each validates its input and runs through guard.
  search = (caller: Caller, input: Record<string, unknown>, options?: CallOptions) =>
    reads.search(this, caller, input, options);
  answer = (caller: Caller, input: Record<string, unknown>, options?: answers.AnswerCallOptions) =>
    answers.answer(this, caller, input, options);
  /** ragAnswer as events (stage progress, text pieces, citations, then the result); see answers.ts. */
  answerStream = (caller: Caller, input: Record<string, unknown>, options?: CallOptions) =>
    answers.answerStream(this, caller, input, options);
  getDocument = (caller: Caller, input: Record<string, unknown>, options?: CallOptions) =>
    reads.getDocument(this, caller, input, options);
  documentContent = (caller: Caller, input: Record<string, unknown>, options?: CallOptions) =>
    reads.documentContent(this, caller, input, options);
  listDocuments = (caller: Caller, input: Record<string, unknown>, options?: CallOptions) =>
    reads.listDocuments(this, caller, input, options);
  documentChunks = (caller: Caller, input: Record<string, unknown>, options?: CallOptions) =>
    reads.documentChunks(this, caller, input, options);
  corpus = (caller: Caller, input: Record<string, unknown>, options?: CallOptions) =>
    reads.corpus(this, caller, input, options);
  entity = (caller: Caller, input: Record<string, unknown>, options?: CallOptions) =>
    reads.entity(this, caller, input, options);
  expandGraph = (caller: Caller, input: Record<string, unknown>, options?: CallOptions) =>
    reads.expandGraph(this, caller, input, options);
  findEndpoints = (caller: Caller, input: Record<string, unknown>, options?: CallOptions) =>
    reads.endpoints(this, caller, input, options);
  job = (caller: Caller, input: { id: unknown }) => reads.job(this, caller, input);
  listJobs = (caller: Caller, input: Record<string, unknown>, options?: CallOptions) =>
    reads.listJobs(this, caller, input, options);
  listWorkspaces = (caller: Caller) => reads.listWorkspaces(this, caller);
  ingest = (caller: Caller, input: Record<string, unknown>, options?: CallOptions) =>
    writes.ingest(this, caller, input, options);
  deleteDocument = (caller: Caller, input: Record<string, unknown>, options?: CallOptions) =>
    writes.deleteDocument(this, caller, input, options);
  refreshDocument = (caller: Caller, input: Record<string, unknown>, options?: CallOptions) =>
    writes.refreshDocument(this, caller, input, options);
  resumeIngest = (caller: Caller, input: Record<string, unknown>, options?: CallOptions) =>
    writes.resumeIngest(this, caller, input, options);
  refreshUrl = (caller: Caller, input: Record<string, unknown>, options?: CallOptions) =>
    writes.refreshUrl(this, caller, input, options);
  createApiKey = (caller: Caller, input: Record<string, unknown>) => admin.createApiKey(this, caller, input);
  revokeApiKey = (caller: Caller, input: { id: unknown }) => admin.revokeApiKey(this, caller, input);
  listApiKeys = (caller: Caller, input?: { includeRevoked?: unknown }) =>
    admin.listApiKeys(this, caller, input);
  deadLetters = (caller: Caller, input: { limit?: unknown }) => admin.deadLetters(this, caller, input);
  retryDeadLetters = (caller: Caller, input: { ids?: unknown }) =>
    admin.retryDeadLetters(this, caller, input);
  purgeDeadLetters = (caller: Caller) => admin.purgeDeadLetters(this, caller);
  auditLog = (caller: Caller, input: Record<string, unknown>) => admin.auditLog(this, caller, input);
  evalRuns = (caller: Caller, input: { limit?: unknown } = {}) => evalReports.evalRuns(this, caller, input);
  evalRun = (caller: Caller, input: { id: unknown }) => evalReports.evalRun(this, caller, input);
  // The REST contract's reads of numbered entities (docs/rest-contract.md), with their corpus version.
  textbookEntity = (
    caller: Caller,
    input: Parameters<typeof textbook.textbookEntity>[2],
    options?: textbook.CachedReadOptions,
  ) => textbook.textbookEntity(this, caller, input, options);
  textbookSearch = (
    caller: Caller,
    input: Parameters<typeof textbook.textbookSearch>[2],
    options?: textbook.CachedReadOptions,
  ) => textbook.textbookSearch(this, caller, input, options);
  textbookExpand = (
    caller: Caller,
    input: Parameters<typeof textbook.textbookExpand>[2],
    options?: textbook.CachedReadOptions,
  ) => textbook.textbookExpand(this, caller, input, options);

  async close(): Promise<void> {
    await this.limiter?.close();
    await this.proofLimiter?.close();
  }
}

function bearerToken(authorization: string | null | undefined): string | null {
  if (typeof authorization !== 'string' || authorization.length > 4096) return null;
  return BEARER.exec(authorization)?.[1] ?? null;
}

/** Text a database column takes whatever a caller sent: NUL and unpaired surrogates become U+FFFD. */
const printable = (value: string) =>
  value.replaceAll('\u0000', '\ufffd').replace(/\p{Surrogate}/gu, '\ufffd');

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * The workspace the database walls a call into: the caller's own for a key scoped to one (the
 * key decides, not the request), the requested one for a key of every workspace. The guard has
 * already refused a scoped key asking elsewhere; should that check ever fail, row-level security
 * still shows the call only its key's workspace.
 */
export function databaseScope(caller: Caller, requested: string): string {
  return caller.scope === '*' ? requested : caller.scope;
}
