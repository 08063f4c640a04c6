import { ErrorCode, RagError } from '../errors/index.js';

const WORKSPACE_ID = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/** Workspace ids appear in keys, logs and URLs: a short, plain token. */
export function assertWorkspaceId(workspaceId: string): void {
  if (!WORKSPACE_ID.test(workspaceId)) {
    throw new RagError(
      ErrorCode.INVALID_INPUT,
      `workspace "${workspaceId}" is invalid: expected letters, digits, _ . - (1-64 characters, starting with a letter or digit)`,
      { details: { workspaceId } },
    );
  }
}
