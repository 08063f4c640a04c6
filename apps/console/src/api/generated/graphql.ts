/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> =
  T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
export type CrawlSiteInput = {
  /** Requests in flight at once (default 2). */
  concurrency?: number | null | undefined;
  /** Fetch every page in full, without If-None-Match / If-Modified-Since. */
  full?: boolean | null | undefined;
  /** Bytes downloaded per crawl (default 500 MiB). */
  maxBytes?: number | null | undefined;
  /** Links followed from the start page (default 10); a sitemap's pages are all depth 0. */
  maxDepth?: number | null | undefined;
  /** Pages requested per crawl (default 1000). */
  maxPages?: number | null | undefined;
  /** Requests per second (default 2); robots.txt's Crawl-delay may slow it further. */
  rate?: number | null | undefined;
  /** Crawl again at this interval while a worker runs (24h, 30m, 1d; at least a minute). Needs the queue. */
  schedule?: string | null | undefined;
  /** A start page (http or https), or a sitemap or sitemap index (a URL ending in .xml). */
  url: string;
  workspaceId: string;
};

export type DocumentOrder =
  /** By id (source path). */
  | 'PATH'
  /** Most recently updated (ingested, changed) first. */
  | 'UPDATED';

export type IngestInput = {
  documents?: Array<InlineDocumentInput> | null | undefined;
  /** Files or folders inside AGENTIC_RAG_CORPUS_DIR, relative to it ('.' is all of it). */
  paths?: Array<string> | null | undefined;
  /** Remove documents of an ingested folder whose files are gone. */
  prune?: boolean | null | undefined;
  workspaceId: string;
};

/** One document given inline: exactly one of content and contentBase64. */
export type InlineDocumentInput = {
  /** The document's text (any text format). */
  content?: string | null | undefined;
  /** The file's bytes in base64: required for PDF and DOCX, accepted for text formats (UTF-8). */
  contentBase64?: string | null | undefined;
  /** Path-like id whose extension picks the loader: notes/faq.md, api/spec.yaml, manuals/guide.pdf. */
  id: string;
};

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

export type PingQueryVariables = Exact<{ [key: string]: never }>;

export type PingQuery = { __typename: 'Query' };

export type WorkspacesQueryVariables = Exact<{ [key: string]: never }>;

export type WorkspacesQuery = {
  workspaces: Array<{ id: string; documents: number; corpusVersion: number; updatedAt: string }>;
};

export type JobFieldsFragment = {
  id: string;
  kind: string;
  subject: string | null;
  status: string;
  attempts: number;
  progress: number;
  corpusVersion: number | null;
  error: string | null;
  createdAt: string;
  finishedAt: string | null;
};

export type IngestResultFieldsFragment = {
  mode: string;
  jobs: Array<{
    id: string;
    kind: string;
    subject: string | null;
    status: string;
    attempts: number;
    progress: number;
    corpusVersion: number | null;
    error: string | null;
    createdAt: string;
    finishedAt: string | null;
  }>;
  summary: {
    failures: Array<{ sourceId: string; code: string; message: string }>;
    documents: { added: number; updated: number; unchanged: number; failed: number };
  } | null;
};

export type IngestMutationVariables = Exact<{
  input: IngestInput;
}>;

export type IngestMutation = {
  ingestDocuments: {
    mode: string;
    jobs: Array<{
      id: string;
      kind: string;
      subject: string | null;
      status: string;
      attempts: number;
      progress: number;
      corpusVersion: number | null;
      error: string | null;
      createdAt: string;
      finishedAt: string | null;
    }>;
    summary: {
      failures: Array<{ sourceId: string; code: string; message: string }>;
      documents: { added: number; updated: number; unchanged: number; failed: number };
    } | null;
  };
};

export type JobQueryVariables = Exact<{
  id: string;
}>;

export type JobQuery = {
  job: {
    id: string;
    kind: string;
    subject: string | null;
    status: string;
    attempts: number;
    progress: number;
    corpusVersion: number | null;
    error: string | null;
    createdAt: string;
    finishedAt: string | null;
  } | null;
};

export type DocumentSummaryFieldsFragment = {
  id: string;
  title: string | null;
  kind: string;
  chunkCount: number;
  tokenCount: number;
  updatedAt: string;
};

export type DocumentsQueryVariables = Exact<{
  workspaceId: string;
  after?: string | null | undefined;
  sourcePrefix?: string | null | undefined;
  search?: string | null | undefined;
  orderBy?: DocumentOrder | null | undefined;
}>;

export type DocumentsQuery = {
  documents: {
    totalCount: number;
    pageInfo: { hasNextPage: boolean; endCursor: string | null };
    edges: Array<{
      node: {
        id: string;
        title: string | null;
        kind: string;
        chunkCount: number;
        tokenCount: number;
        updatedAt: string;
      };
    }>;
  };
};

export type DocumentSummaryQueryVariables = Exact<{
  workspaceId: string;
  id: string;
}>;

export type DocumentSummaryQuery = {
  document: {
    id: string;
    title: string | null;
    kind: string;
    chunkCount: number;
    tokenCount: number;
    updatedAt: string;
  } | null;
};

export type DocumentQueryVariables = Exact<{
  workspaceId: string;
  id: string;
  chunks: number;
}>;

export type DocumentQuery = {
  document: {
    id: string;
    title: string | null;
    url: string | null;
    kind: string;
    tokenCount: number;
    chunkCount: number;
    updatedAt: string;
    chunks: Array<{
      index: number;
      text: string;
      startOffset: number;
      endOffset: number;
      sectionPath: string;
    }>;
  } | null;
};

export type DeleteDocumentMutationVariables = Exact<{
  workspaceId: string;
  id: string;
}>;

export type DeleteDocumentMutation = { deleteDocument: { deleted: boolean; corpusVersion: number } };

export type RefreshDocumentMutationVariables = Exact<{
  workspaceId: string;
  id: string;
}>;

export type RefreshDocumentMutation = {
  refreshDocument: {
    mode: string;
    jobs: Array<{
      id: string;
      kind: string;
      subject: string | null;
      status: string;
      attempts: number;
      progress: number;
      corpusVersion: number | null;
      error: string | null;
      createdAt: string;
      finishedAt: string | null;
    }>;
    summary: {
      failures: Array<{ sourceId: string; code: string; message: string }>;
      documents: { added: number; updated: number; unchanged: number; failed: number };
    } | null;
  };
};

export type AnswerStreamSubscriptionVariables = Exact<{
  input: RagAnswerInput;
}>;

export type AnswerStreamSubscription = {
  ragAnswerStream: {
    type: string;
    stage: string | null;
    status: string | null;
    ms: number | null;
    text: string | null;
    citation: {
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
    } | null;
    answer: {
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
    } | null;
    error: { code: string; message: string; retryable: boolean } | null;
  };
};

export type CrawlSiteMutationVariables = Exact<{
  input: CrawlSiteInput;
}>;

export type CrawlSiteMutation = {
  crawlSite: {
    mode: string;
    jobs: Array<{
      id: string;
      kind: string;
      subject: string | null;
      status: string;
      attempts: number;
      progress: number;
      corpusVersion: number | null;
      error: string | null;
      createdAt: string;
      finishedAt: string | null;
    }>;
    summary: {
      site: string;
      chunks: number;
      seconds: number;
      stoppedBy: string | null;
      pages: {
        requested: number;
        fetched: number;
        notModified: number;
        gone: number;
        disallowed: number;
        skipped: number;
        failed: number;
      };
      documents: { added: number; updated: number; unchanged: number; removed: number; failed: number };
      failures: Array<{ sourceId: string; code: string; message: string }>;
    } | null;
  };
};

export type JobsQueryVariables = Exact<{
  workspaceId: string;
  first?: number | null | undefined;
}>;

export type JobsQuery = {
  jobs: {
    queue: boolean;
    jobs: Array<{
      id: string;
      kind: string;
      subject: string | null;
      status: string;
      attempts: number;
      progress: number;
      corpusVersion: number | null;
      error: string | null;
      createdAt: string;
      finishedAt: string | null;
    }>;
  };
};

export type DeadLettersQueryVariables = Exact<{ [key: string]: never }>;

export type DeadLettersQuery = {
  deadLetters: Array<{
    id: string;
    kind: string;
    document: string;
    workspaceId: string;
    error: string;
    attempts: number;
    failedAt: string;
  }>;
};

export type RetryDeadLettersMutationVariables = Exact<{
  ids?: Array<string> | string | null | undefined;
}>;

export type RetryDeadLettersMutation = { retryDeadLetters: Array<string> };

export type EvalRunsQueryVariables = Exact<{
  limit?: number | null | undefined;
}>;

export type EvalRunsQuery = {
  evalRuns: Array<{
    id: string;
    startedAt: string;
    dataset: string;
    workspaceId: string;
    answerer: string;
    k: number;
    seconds: number;
    questions: number;
    answerable: number;
    hitRate: number;
    mrr: number;
    answerRecall: number;
    citationCoverage: number;
    citationPrecision: number;
    refusalAccuracy: number;
    refusedWhenRequired: number;
    refusalRequired: number;
    falseRefusals: number;
    endpointPrecisionAt1: number | null;
    latencyP50Ms: number;
    latencyP95Ms: number;
  }>;
};

export type EvalRunQueryVariables = Exact<{
  id: string;
}>;

export type EvalRunQuery = {
  evalRun: {
    id: string;
    stages: Array<{ stage: string; p50Ms: number; p95Ms: number }>;
    categories: Array<{
      category: string;
      questions: number;
      hitRate: number | null;
      mrr: number | null;
      answerRecall: number | null;
      refusalAccuracy: number;
    }>;
  } | null;
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
