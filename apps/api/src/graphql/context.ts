import type { Caller, Logger, RagService, StoredDocument } from '@agentic-rag/core';

/**
 * What every resolver is given, and the Document shape its field resolvers start from: a leaf the
 * generated resolver types name (codegen's contextType and mappers), so they and the resolvers do
 * not import each other.
 */

export interface ApiContext {
  service: RagService;
  /** Who is asking: authenticated by the HTTP server before GraphQL runs. */
  caller: Caller;
  signal: AbortSignal;
  /** The request's logger, bound to its request id. */
  logger: Logger;
}

export const documentNode = (workspaceId: string, document: StoredDocument) => ({
  workspaceId,
  id: document.sourcePath,
  title: document.title,
  url: document.url,
  kind: document.kind,
  contentHash: document.contentHash,
  tokenCount: document.tokenCount,
  chunkCount: document.chunkCount,
  metadata: document.metadata,
  updatedAt: document.updatedAt,
});

/** Document's parent object (codegen's mapper): the fields it resolves, and its workspace for `chunks`. */
export type DocumentParent = ReturnType<typeof documentNode>;
