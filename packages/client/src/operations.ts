// The GraphQL operations the client sends. `pnpm codegen` checks each against the server's
// schema.graphql and generates its variables and result types into generated/graphql.ts, so a
// schema change that breaks one fails there, not in a user's program. The package exports them, with
// those types, as `operations`, for an app that sends them itself (the web console does).

/**
 * A citation as every reader of an answer takes it: the passage's source, its exact character span
 * in the stored text and its page. The console's stream spreads it in its `citation` events.
 */
export const CITATION_FIELDS = /* GraphQL */ `
  fragment CitationFields on Citation {
    index
    sourceId
    chunkId
    title
    url
    snippet
    startOffset
    endOffset
    score
    pageNumber
  }
`;

/**
 * An answer as ragAnswer returns it, and as the stream's `final` event carries it (the console
 * spreads this fragment there): the text, its citations, the self-check and the conversation turn.
 */
export const ANSWER_FIELDS = /* GraphQL */ `
  fragment AnswerFields on RagAnswer {
    answer
    refused
    cached
    runId
    traceId
    corpusVersion
    citations {
      ...CitationFields
    }
    selfCheck {
      passed
      citationCoverage
      warnings
    }
    conversation {
      id
      turn
      standaloneQuery
      rewritten
      rewriter
    }
  }
  ${CITATION_FIELDS}
`;

export const RAG_ANSWER = /* GraphQL */ `
  mutation RagAnswer($input: RagAnswerInput!) {
    ragAnswer(input: $input) {
      ...AnswerFields
    }
  }
  ${ANSWER_FIELDS}
`;

export const SEARCH = /* GraphQL */ `
  query Search($input: SearchInput!) {
    search(input: $input) {
      query
      correctedQuery
      hits {
        chunkId
        sourceId
        title
        url
        text
        startOffset
        endOffset
        sectionPath
        score
        fusedScore
        channels
        rerank
        graphEntities
        mentions
        documentMetadata
      }
    }
  }
`;

export const EXPAND_GRAPH = /* GraphQL */ `
  query ExpandGraph($workspaceId: ID!, $ids: [ID!]!, $depth: Int, $relationTypes: [String!]) {
    expandGraph(workspaceId: $workspaceId, ids: $ids, depth: $depth, relationTypes: $relationTypes) {
      entities {
        id
        type
        name
        hop
        strength
      }
      edges {
        from
        to
        type
        weight
      }
    }
  }
`;

/** A knowledge pack's piece or graph document, by id: what KnowledgeProvider reads of it. */
export const KNOWLEDGE_DOCUMENT = /* GraphQL */ `
  query KnowledgeDocument($workspaceId: ID!, $id: ID!) {
    document(workspaceId: $workspaceId, id: $id) {
      id
      metadata
      chunks(first: 50) {
        text
        startOffset
        endOffset
      }
    }
  }
`;

export type {
  AnswerFieldsFragment,
  CitationFieldsFragment,
  ExpandGraphQuery,
  ExpandGraphQueryVariables,
  KnowledgeDocumentQuery,
  KnowledgeDocumentQueryVariables,
  RagAnswerMutation,
  RagAnswerMutationVariables,
  SearchQuery,
  SearchQueryVariables,
} from './generated/graphql.js';
