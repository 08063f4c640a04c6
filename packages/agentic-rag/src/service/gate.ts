import { withWorkspaceScope } from '../db/index.js';
import { ApiKeyStore, roleAllows, type RateLimiter } from '../auth/index.js';
import { ErrorCode, RagError, toRagError } from '../errors/index.js';
import type { RagRuntime } from '../runtime/index.js';
import { silentLogger } from '../telemetry/index.js';
import { AuditLog } from './audit.js';
import { inScope, missingWorkspace, type Caller } from './caller.js';
import { parseInput, WorkspaceIdSchema } from './inputs.js';
import type { GuardOptions, OperationContext, OperationHost } from './operation-host.js';
import { OPERATIONS, type Operation } from './permissions.js';

/**
 * The gates every operation passes: the key's rate budget, the operation's role and scope, the
 * workspace's existence, row-level security and the audit record of writes. Only RagService
 * holds one; the operation modules run through it (as an OperationHost) and nothing else does.
 */
export class OperationGate implements OperationHost {
  readonly keys: ApiKeyStore;
  readonly audit: AuditLog;

  constructor(
    readonly runtime: RagRuntime,
    private readonly limiter: RateLimiter | null,
    keys?: ApiKeyStore,
  ) {
    this.keys = keys ?? new ApiKeyStore(runtime.sql);
    this.audit = new AuditLog(runtime.sql);
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
      const corpusVersion = await this.runtime.store.corpusVersion(id);
      if (corpusVersion === 0) {
        const mayCreate = options.workspace === 'create' && (caller.role === 'admin' || caller.scope === id);
        if (!mayCreate) throw missingWorkspace(id);
      }
      const context: OperationContext = {
        runtime: this.runtime,
        caller,
        workspaceId: id,
        corpusVersion,
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

  async close(): Promise<void> {
    await this.limiter?.close();
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
}

/** Text a database column takes whatever a caller sent: NUL and unpaired surrogates become U+FFFD. */
const printable = (value: string) =>
  value.replaceAll('\u0000', '\ufffd').replace(/\p{Surrogate}/gu, '\ufffd');

/**
 * The workspace the database walls a call into: the caller's own for a key scoped to one (the
 * key decides, not the request), the requested one for a key of every workspace. The guard has
 * already refused a scoped key asking elsewhere; should that check ever fail, row-level security
 * still shows the call only its key's workspace.
 */
export function databaseScope(caller: Caller, requested: string): string {
  return caller.scope === '*' ? requested : caller.scope;
}
