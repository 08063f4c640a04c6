/** Shapes of what the service returns, as far as the client reads them. */

export interface Citation {
  index: number;
  sourceId: string;
  chunkId: string;
  title: string | null;
  url: string | null;
  snippet: string;
  score: number;
  /** The 1-based page the cited passage starts on, for a paged source (PDF); null otherwise. */
  pageNumber: number | null;
}

export interface RagAnswer {
  answer: string;
  citations: Citation[];
  refused: boolean;
  cached: boolean;
  runId: string;
  traceId: string;
  corpusVersion: number;
  selfCheck: { passed: boolean; citationCoverage: number; warnings: string[] };
  /** Set when the question was asked in a conversation. */
  conversation?: AnswerConversation | null;
}

export interface AnswerConversation {
  /** Pass it as `conversationId` with the next question. */
  id: string;
  turn: number;
  /** The question answered: a follow-up made standalone against the earlier turns. */
  standaloneQuery: string;
  rewritten: boolean;
  rewriter: 'none' | 'rules' | 'llm';
}

/** What `ragAnswerStream` yields (the server's `error` event is thrown as an AgenticRagError). */
export type RagAnswerStreamEvent =
  | { type: 'stage'; stage: string; status: 'started' }
  | { type: 'stage'; stage: string; status: 'finished'; ms: number }
  | { type: 'delta'; text: string }
  | { type: 'citation'; citation: Citation }
  | { type: 'final'; answer: RagAnswer }
  | { type: 'error'; code: string; message: string; retryable: boolean };

export interface RagAnswerInput {
  query: string;
  workspaceId?: string;
  topK?: number;
  useHyde?: boolean;
  useTools?: boolean;
  filters?: Record<string, unknown>;
  /**
   * Read at least this corpus version: pass the corpusVersion an ingest or delete returned to read
   * your own write through another API process or a replica.
   */
  minCorpusVersion?: number;
  /** Continue a conversation (the `conversation.id` of an earlier answer). */
  conversationId?: string;
  /** Begin a conversation with this question. */
  startConversation?: boolean;
}

export interface SearchHit {
  chunkId: string;
  sourceId: string;
  title: string | null;
  url: string | null;
  text: string;
  score: number;
  graphEntities: string[] | null;
  /** Graph entities the chunk mentions. */
  mentions: string[];
  documentMetadata: Record<string, unknown> | null;
}

export interface SearchInput {
  query: string;
  workspaceId?: string;
  k?: number;
  filters?: Record<string, unknown>;
  /**
   * Read at least this corpus version: pass the corpusVersion an ingest or delete returned to read
   * your own write through another API process or a replica.
   */
  minCorpusVersion?: number;
}

export interface SearchResult {
  query: string;
  correctedQuery: string | null;
  hits: SearchHit[];
}

export interface GraphExpansion {
  entities: Array<{ id: string; type: string; name: string; hop: number; strength: number }>;
  edges: Array<{ from: string; to: string; type: string; weight: number }>;
}

export interface SemanticSearchRequest {
  query: string;
  k?: number;
  traverse_types?: string[];
  filters?: { chapter?: string | number; section?: string; page_number?: number };
}

export interface SemanticSearchResponse {
  results: Array<{
    id: string;
    type: string;
    content: string;
    number: string | null;
    title: string;
    chapter: string | null;
    section: string | null;
    page_number: number | null;
    score: number;
  }>;
  total_count: number;
  did_you_mean?: string;
}

export interface ExpandGraphRequest {
  document_ids: string[];
  traverse_types?: string[];
}

export interface ExpandGraphResponse {
  expanded_documents: Array<{
    id: string;
    type: string;
    content: string;
    relationships: Array<{ type: string; target_id: string; target_type: string }>;
  }>;
  relationship_count: number;
  metadata: { warnings: string[] };
}

export interface EntityResponse {
  id: string;
  type: string;
  number: string | null;
  title: string;
  chapter: string | null;
  section: string | null;
  page_number: number | null;
  content: string;
  /** Ids (`formula_3_2`) of what the entity references, uses or cites. */
  references: string[];
  /** Ids (`exercise_3_2`) of what references, uses or cites the entity. */
  cited_by: string[];
}
