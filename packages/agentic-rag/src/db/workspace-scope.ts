import { AsyncLocalStorage } from 'node:async_hooks';
import { WORKSPACE_ID_PATTERN as WORKSPACE_ID } from '../config/index.js';
import { ErrorCode, RagError } from '../errors/index.js';

/**
 * The role the database walls in with row-level security (migrations/2026-11-25_3_row_security.sql):
 * it sees and writes only the rows of the workspace named by the transaction's `app.workspace`.
 */
export const APPLICATION_ROLE = 'agentic_rag_app';

// The workspace id shape (config/schema.ts) is checked here again because the id is written into
// SQL text on Postgres (see scopedBeginText).

const scope = new AsyncLocalStorage<string>();

/**
 * Runs `work` with every statement it sends through a `Sql` walled into one workspace: each
 * `query()`, `exec()` and `transaction()` runs in a transaction as the application role with
 * `app.workspace` set, so a statement that forgets its workspace condition sees that workspace
 * only. The scope follows `work`'s async calls (AsyncLocalStorage), so concurrent scopes do not
 * mix; a nested call replaces the workspace for its own `work`.
 */
export async function withWorkspaceScope<T>(workspaceId: string, work: () => Promise<T>): Promise<T> {
  assertScopeWorkspace(workspaceId);
  return await scope.run(workspaceId, work);
}

/** The workspace of the innermost withWorkspaceScope() around the caller, if any. */
export function currentWorkspaceScope(): string | undefined {
  return scope.getStore();
}

function assertScopeWorkspace(workspaceId: string): void {
  if (typeof workspaceId !== 'string' || !WORKSPACE_ID.test(workspaceId)) {
    throw new RagError(
      ErrorCode.INVALID_INPUT,
      `workspace "${String(workspaceId)}" is invalid: expected letters, digits, _ . - (1-64 characters, starting with a letter or digit)`,
      { details: { workspaceId } },
    );
  }
}

/** Parameterised: the first statement of a scoped transaction, with the workspace as $1. */
export const SCOPE_STATEMENT = `SELECT set_config('role', '${APPLICATION_ROLE}', true), set_config('app.workspace', $1, true)`;

/**
 * `BEGIN` and the scope in one simple-protocol round trip (Postgres). The id is inlined as a
 * literal, which is safe only because it matched WORKSPACE_ID (no quote, backslash or space);
 * it is checked again here so no caller can skip that.
 */
export function scopedBeginText(workspaceId: string): string {
  assertScopeWorkspace(workspaceId);
  return `BEGIN; SELECT set_config('role', '${APPLICATION_ROLE}', true), set_config('app.workspace', '${workspaceId}', true)`;
}
