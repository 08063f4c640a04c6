import { ErrorCode, RagError } from '../errors/index.js';
import type { Role } from '../auth/index.js';

/** Who is asking: the identity every service call carries, whichever transport it came by. */
export interface Caller {
  /** The API key's public id; null for the local operator and when auth is off. */
  keyId: string | null;
  /** How audit records name the caller: `key:<id>`, `cli`, `anonymous`. */
  actor: string;
  role: Role;
  /** The one workspace the caller may see, or `*` for all. */
  scope: string;
  /**
   * The request this caller was authenticated for: its authentication paid for one operation,
   * each further operation in it (an MCP batch, GraphQL aliases, a stdio session) pays its own.
   */
  request?: { operations: number };
  /**
   * The operator at this machine (localOperator): may name files anywhere it can read, as its
   * shell could, where a remote caller is held inside AGENTIC_RAG_CORPUS_DIR.
   */
  local?: true;
}

/**
 * A command run on the machine with the database in hand (the CLIs, the start-up ingest, the
 * worker). Whoever can open the database directly can do anything; the service still validates
 * and audits what they do.
 */
export function localOperator(actor: string): Caller {
  return { keyId: null, actor, role: 'admin', scope: '*', local: true };
}

/** AGENTIC_RAG_AUTH=off (loopback only): every request acts as an unscoped admin. */
export const ANONYMOUS: Caller = { keyId: null, actor: 'anonymous', role: 'admin', scope: '*' };

export const inScope = (caller: Caller, workspaceId: string): boolean =>
  caller.scope === '*' || caller.scope === workspaceId;

/** A workspace the caller may not see answers exactly like one that does not exist. */
export function missingWorkspace(workspaceId: string): RagError {
  return new RagError(ErrorCode.WORKSPACE_NOT_FOUND, `workspace "${workspaceId}" does not exist`);
}
