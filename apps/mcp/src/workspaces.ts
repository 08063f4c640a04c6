import { missingWorkspace, parseInput, WorkspaceIdSchema, type Config } from '@agentic-rag/core';

/**
 * Which workspace a tool call reads: the deployment's default (AGENTIC_RAG_WORKSPACE) when the
 * call names none; another only when AGENTIC_RAG_MCP_WORKSPACES lists it (or holds `*`). A
 * workspace outside the list answers like one that does not exist, so a client cannot probe
 * which others there are. The caller's key scope and the workspace's existence are the
 * service's to check, exactly as on every other transport.
 */
export function workspacePolicy(config: Config): (requested: string | undefined) => string {
  const served = new Set<string>(config.AGENTIC_RAG_MCP_WORKSPACES);
  const fallback = config.AGENTIC_RAG_WORKSPACE;
  return (requested) => {
    const workspaceId = parseInput(WorkspaceIdSchema, requested ?? fallback);
    if (workspaceId !== fallback && !served.has('*') && !served.has(workspaceId))
      throw missingWorkspace(workspaceId);
    return workspaceId;
  };
}
