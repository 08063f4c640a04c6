/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> =
  T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
export type RagAnswerInput = {
  /**
   * Continue a conversation: its earlier turns go to the rewrite stage, which makes a follow-up ("and
   * how do I delete it?") stand alone. A conversation of another key or workspace, or one expired
   * (AGENTIC_RAG_CONVERSATION_TTL_SECONDS), is NOT_FOUND.
   */
  conversationId?: string | null | undefined;
  debug?: boolean | null | undefined;
  filters?: Record<string, unknown> | null | undefined;
  /**
   * Read at least this corpus version of the workspace: pass the corpusVersion a write (ingest,
   * delete, refresh) returned to see that write whichever API process and database replica answer.
   */
  minCorpusVersion?: number | null | undefined;
  query: string;
  /** Begin a conversation with this question: the answer's conversation.id names it for the next one. */
  startConversation?: boolean | null | undefined;
  topK?: number | null | undefined;
  useHyde?: boolean | null | undefined;
  useTools?: boolean | null | undefined;
  workspaceId: string;
};

export type SearchInput = {
  filters?: Record<string, unknown> | null | undefined;
  k?: number | null | undefined;
  /**
   * Read at least this corpus version of the workspace: pass the corpusVersion a write (ingest,
   * delete, refresh) returned to see that write whichever API process and database replica answer.
   */
  minCorpusVersion?: number | null | undefined;
  query: string;
  workspaceId: string;
};

export type CitationFieldsFragment = {
  index: number;
  sourceId: string;
  chunkId: string;
  title: string | null;
  url: string | null;
  snippet: string;
  startOffset: number;
  endOffset: number;
  score: number;
  pageNumber: number | null;
};

export type AnswerFieldsFragment = {
  answer: string;
  refused: boolean;
  cached: boolean;
  runId: string;
  traceId: string;
  corpusVersion: number;
  citations: Array<{
    index: number;
    sourceId: string;
    chunkId: string;
    title: string | null;
    url: string | null;
    snippet: string;
    startOffset: number;
    endOffset: number;
    score: number;
    pageNumber: number | null;
  }>;
  selfCheck: { passed: boolean; citationCoverage: number; warnings: Array<string> };
  conversation: {
    id: string;
    turn: number;
    standaloneQuery: string;
    rewritten: boolean;
    rewriter: string;
  } | null;
};

export type RagAnswerMutationVariables = Exact<{
  input: RagAnswerInput;
}>;

export type RagAnswerMutation = {
  ragAnswer: {
    answer: string;
    refused: boolean;
    cached: boolean;
    runId: string;
    traceId: string;
    corpusVersion: number;
    citations: Array<{
      index: number;
      sourceId: string;
      chunkId: string;
      title: string | null;
      url: string | null;
      snippet: string;
      startOffset: number;
      endOffset: number;
      score: number;
      pageNumber: number | null;
    }>;
    selfCheck: { passed: boolean; citationCoverage: number; warnings: Array<string> };
    conversation: {
      id: string;
      turn: number;
      standaloneQuery: string;
      rewritten: boolean;
      rewriter: string;
    } | null;
  };
};

export type SearchQueryVariables = Exact<{
  input: SearchInput;
}>;

export type SearchQuery = {
  search: {
    query: string;
    correctedQuery: string | null;
    hits: Array<{
      chunkId: string;
      sourceId: string;
      title: string | null;
      url: string | null;
      text: string;
      startOffset: number;
      endOffset: number;
      sectionPath: string;
      score: number;
      fusedScore: number;
      channels: Record<string, unknown>;
      rerank: Record<string, unknown> | null;
      graphEntities: Array<string> | null;
      mentions: Array<string>;
      documentMetadata: Record<string, unknown> | null;
    }>;
  };
};

export type ExpandGraphQueryVariables = Exact<{
  workspaceId: string;
  ids: Array<string> | string;
  depth?: number | null | undefined;
  relationTypes?: Array<string> | string | null | undefined;
}>;

export type ExpandGraphQuery = {
  expandGraph: {
    entities: Array<{ id: string; type: string; name: string; hop: number; strength: number }>;
    edges: Array<{ from: string; to: string; type: string; weight: number }>;
  };
};

export type KnowledgeDocumentQueryVariables = Exact<{
  workspaceId: string;
  id: string;
}>;

export type KnowledgeDocumentQuery = {
  document: {
    id: string;
    metadata: Record<string, unknown>;
    chunks: Array<{ text: string; startOffset: number; endOffset: number }>;
  } | null;
};
