import type { z } from 'zod';
import type { ApiKeyStore } from '../auth/index.js';
import { withCorpusVersion } from '../db/index.js';
import { ErrorCode, RagError } from '../errors/index.js';
import type { RagRuntime } from '../runtime/index.js';
import type { Logger } from '../telemetry/index.js';
import type { AuditLog } from './audit.js';
import type { Caller } from './caller.js';
import type { WorkspaceId } from './inputs.js';
import type { Operation } from './permissions.js';

/** What an operation runs with once the caller may run it on the workspace. */
export interface OperationContext {
  runtime: RagRuntime;
  caller: Caller;
  workspaceId: WorkspaceId;
  /**
   * The workspace's corpus version as the guard read it on the primary (0: nothing written yet),
   * the one read of it a request makes: caches and ETags key on it.
   */
  corpusVersion: number;
  signal: AbortSignal | undefined;
  logger: Logger;
}

/**
 * What a caller hands a workspace operation: the fields its schema takes (validated once, by the
 * operation, inside the guard) and the workspace (validated by the guard).
 */
export type WorkspaceCall<Schema extends z.ZodType> = z.input<Schema> & { workspaceId: string };

export interface CallOptions {
  signal?: AbortSignal;
  logger?: Logger;
}

export interface GuardOptions extends CallOptions {
  /**
   * `existing` (default): a workspace nobody wrote to does not exist. `create`: the operation may
   * bring it into being (an admin's, or a key made for that very workspace).
   */
  workspace?: 'existing' | 'create';
  /** What a write touched, for the audit record (a document id, a key id). */
  target?: string | null;
}

/**
 * What the operation modules (reads, writes, admin, answers, eval-runs) run through: the runtime
 * and the gates. RagService is the one host; the modules name this interface, not the class, so
 * the class may import them without a circle between the two.
 */
export interface OperationHost {
  readonly runtime: RagRuntime;
  readonly keys: ApiKeyStore;
  readonly audit: AuditLog;
  /** FORBIDDEN unless the caller's role reaches the operation's. */
  authorize(caller: Caller, operation: Operation): void;
  /** A workspace's operation: role, scope, existence, row-level security, audit. */
  guard<T>(
    caller: Caller,
    operation: Operation,
    workspaceId: unknown,
    work: (context: OperationContext) => Promise<T>,
    options?: GuardOptions,
  ): Promise<T>;
  /** An operation across the deployment (keys, dead letters, the audit log): role and audit. */
  guardDeployment<T>(
    caller: Caller,
    operation: Operation,
    work: () => Promise<T>,
    options?: { target?: string | null; workspaceId?: string | null },
  ): Promise<T>;
}

/**
 * Runs a read that may be served by a replica (DATABASE_READ_URL) no older than the newest corpus
 * version the client presented or this process wrote: either one it has seen written, it sees.
 */
export function atCorpusVersion<T>(
  { runtime, workspaceId }: OperationContext,
  presented: number | null | undefined,
  work: () => Promise<T>,
): Promise<T> {
  const version = Math.max(presented ?? 0, runtime.corpusVersions.latest(workspaceId));
  return withCorpusVersion(workspaceId, version, work);
}

/**
 * The guard's corpus version when reads are not routed to a replica: the run may use it instead
 * of reading it again, since it was read where the run reads. With a replica, undefined: the run
 * reads it on the connection that serves it.
 */
export function knownCorpusVersion({ runtime, corpusVersion }: OperationContext): number | undefined {
  return runtime.readRouting ? undefined : corpusVersion;
}

/** The deployment's job queue: INVALID_INPUT where there is none (no REDIS_URL). */
export function queueOf(runtime: RagRuntime) {
  if (!runtime.queue) {
    throw new RagError(
      ErrorCode.INVALID_INPUT,
      'there is no job queue on this deployment (set REDIS_URL or REDIS_CLUSTER_NODES)',
    );
  }
  return runtime.queue;
}
