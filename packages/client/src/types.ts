/**
 * Shapes of what the service returns, as far as the client reads them. The GraphQL ones are derived
 * from generated/graphql.ts, which `pnpm codegen` makes from the server's schema.graphql and the
 * operations the client sends (operations.ts): a field the schema renames or drops fails codegen and
 * the typecheck instead of reaching a user as undefined.
 */
import type {
  ExpandGraphQuery,
  RagAnswerInput as SchemaRagAnswerInput,
  RagAnswerMutation,
  SearchInput as SchemaSearchInput,
  SearchQuery,
} from './generated/graphql.js';

/** What `ragAnswer` returns: the fields its operation selects. */
export type RagAnswer = RagAnswerMutation['ragAnswer'];
export type Citation = RagAnswer['citations'][number];
/** Set on an answer asked in a conversation; pass its `id` as `conversationId` with the next question. */
export type AnswerConversation = NonNullable<RagAnswer['conversation']>;
export type SearchResult = SearchQuery['search'];
export type SearchHit = SearchResult['hits'][number];
export type GraphExpansion = ExpandGraphQuery['expandGraph'];

/** The schema's input, except that `workspaceId` may be left to the client's default. */
export type RagAnswerInput = Omit<SchemaRagAnswerInput, 'workspaceId'> & { workspaceId?: string };
/** The schema's input, except that `workspaceId` may be left to the client's default. */
export type SearchInput = Omit<SchemaSearchInput, 'workspaceId'> & { workspaceId?: string };

/**
 * What `ragAnswerStream` yields: the events of `POST /answer/stream`, a REST route whose events are
 * flat (the GraphQL subscription's RagAnswerEvent nests them). The server's `error` event is thrown as
 * an AgenticRagError.
 */
export type RagAnswerStreamEvent =
  | { type: 'stage'; stage: string; status: 'started' }
  | { type: 'stage'; stage: string; status: 'finished'; ms: number }
  | { type: 'delta'; text: string }
  | { type: 'citation'; citation: Citation }
  | { type: 'final'; answer: RagAnswer }
  | { type: 'error'; code: string; message: string; retryable: boolean };

// The REST contract (docs/rest-contract.md) is not in schema.graphql; these shapes follow its routes.

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
