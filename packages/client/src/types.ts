/** Shapes of what the service returns, as far as the client reads them. */

export interface Citation {
  index: number;
  sourceId: string;
  chunkId: string;
  title: string | null;
  url: string | null;
  snippet: string;
  score: number;
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
}

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
    title: string | null;
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
  title: string | null;
  chapter: string | null;
  section: string | null;
  page_number: number | null;
  content: string;
  references: Array<{
    id: string;
    type: string;
    number: string | null;
    title: string | null;
    relation: string;
  }>;
  cited_by: Array<{
    id: string;
    type: string;
    number: string | null;
    title: string | null;
    relation: string;
  }>;
}
