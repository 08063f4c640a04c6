import { WORKSPACE_ID_PATTERN } from '../config/index.js';
import { ErrorCode, RagError } from '../errors/index.js';

/** Workspace ids appear in keys, logs and URLs: a short, plain token. */
export function assertWorkspaceId(workspaceId: string): void {
  if (!WORKSPACE_ID_PATTERN.test(workspaceId)) {
    throw new RagError(
      ErrorCode.INVALID_INPUT,
      `workspace "${workspaceId}" is invalid: expected letters, digits, _ . - (1-64 characters, starting with a letter or digit)`,
      { details: { workspaceId } },
    );
  }
}
