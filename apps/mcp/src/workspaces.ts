import { assertWorkspaceId, ErrorCode, RagError, type Config, type CorpusStore } from '@agentic-rag/core';

/**
 * Which workspace a tool call reads: the deployment's default (AGENTIC_RAG_WORKSPACE) when the
 * call names none; another only when AGENTIC_RAG_MCP_WORKSPACES lists it (or holds `*`). A
 * workspace outside the list answers like one that does not exist, so a client cannot probe
 * which others there are; and one that was never written to does not exist, so a typo never
 * looks like an empty knowledge base.
 */
export function workspacePolicy(
  config: Config,
  store: CorpusStore,
): (requested: string | undefined) => Promise<string> {
  const served = new Set<string>(config.AGENTIC_RAG_MCP_WORKSPACES);
  const fallback = config.AGENTIC_RAG_WORKSPACE;
  return async (requested) => {
    const workspaceId = requested ?? fallback;
    assertWorkspaceId(workspaceId);
    if (workspaceId !== fallback && !served.has('*') && !served.has(workspaceId)) {
      throw new RagError(
        ErrorCode.WORKSPACE_NOT_FOUND,
        `workspace "${workspaceId}" is not served by this MCP server (AGENTIC_RAG_MCP_WORKSPACES)`,
      );
    }
    if ((await store.corpusVersion(workspaceId)) === 0) {
      throw new RagError(ErrorCode.WORKSPACE_NOT_FOUND, `workspace "${workspaceId}" does not exist`);
    }
    return workspaceId;
  };
}
