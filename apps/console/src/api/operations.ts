// The operations the console sends that the SDK does not. `search` and `expandGraph` are the SDK's own
// (`operations` of @agentic-rag/client: SEARCH, EXPAND_GRAPH), with the types its codegen makes for them,
// and so are an answer and its citations (ANSWER_FIELDS, which holds CITATION_FIELDS): the stream's
// final event is what ragAnswer returns. The console's `pnpm codegen` reads the SDK's operations
// beside this file for those fragments. Field choices follow apps/api's schema.graphql.
import { operations } from '@agentic-rag/client';

const { ANSWER_FIELDS } = operations;

export const PING = /* GraphQL */ `
  query Ping {
    __typename
  }
`;

export const WORKSPACES = /* GraphQL */ `
  query Workspaces {
    workspaces {
      id
      documents
      corpusVersion
      updatedAt
    }
  }
`;

// Shared selections are GraphQL fragments (codegen cannot read a field list spliced into the text); an
// operation spreads one and appends its definition, which codegen reads from the fragment's own constant.
const JOB_FIELDS = /* GraphQL */ `
  fragment JobFields on Job {
    id
    kind
    subject
    status
    attempts
    progress
    corpusVersion
    error
    createdAt
    finishedAt
  }
`;

/** What an ingest and a refresh both answer: the jobs queued, or the inline run's summary. */
const INGEST_RESULT_FIELDS = /* GraphQL */ `
  fragment IngestResultFields on IngestResult {
    mode
    jobs {
      ...JobFields
    }
    summary {
      failures {
        sourceId
        code
        message
      }
      documents {
        added
        updated
        unchanged
        failed
      }
    }
  }
  ${JOB_FIELDS}
`;

export const INGEST = /* GraphQL */ `
  mutation Ingest($input: IngestInput!) {
    ingestDocuments(input: $input) {
      ...IngestResultFields
    }
  }
  ${INGEST_RESULT_FIELDS}
`;

export const JOB = /* GraphQL */ `
  query Job($id: ID!) {
    job(id: $id) {
      ...JobFields
    }
  }
  ${JOB_FIELDS}
`;

const DOCUMENT_SUMMARY_FIELDS = /* GraphQL */ `
  fragment DocumentSummaryFields on Document {
    id
    title
    kind
    chunkCount
    tokenCount
    updatedAt
  }
`;

export const DOCUMENTS = /* GraphQL */ `
  query Documents(
    $workspaceId: ID!
    $after: String
    $sourcePrefix: String
    $search: String
    $orderBy: DocumentOrder
  ) {
    documents(
      workspaceId: $workspaceId
      first: 100
      after: $after
      sourcePrefix: $sourcePrefix
      search: $search
      orderBy: $orderBy
    ) {
      totalCount
      pageInfo {
        hasNextPage
        endCursor
      }
      edges {
        node {
          ...DocumentSummaryFields
        }
      }
    }
  }
  ${DOCUMENT_SUMMARY_FIELDS}
`;

/** One row of the list again, after a refresh or a delete (null: it is gone). */
export const DOCUMENT_SUMMARY = /* GraphQL */ `
  query DocumentSummary($workspaceId: ID!, $id: ID!) {
    document(workspaceId: $workspaceId, id: $id) {
      ...DocumentSummaryFields
    }
  }
  ${DOCUMENT_SUMMARY_FIELDS}
`;

/**
 * The API's cost limit (GRAPHQL_MAX_COST, 1000 by default) counts each chunk field once per chunk:
 * 180 chunks of 5 fields stay under it. A longer document is shown in part, and says so.
 */
export const DOCUMENT_CHUNKS = 180;

// DOCUMENT_SUMMARY and DOCUMENT stay the console's: the SDK's one `document` query
// (KNOWLEDGE_DOCUMENT) reads the metadata and first 50 chunks' text of a knowledge pack's graph or
// linked piece, once per document KnowledgeProvider follows. Neither selection is a subset of the
// other, and widening it to the viewer's (title, url, kind, counts, 180 chunks with their index and
// section) would make every one of those lookups fetch fields it throws away.

export const DOCUMENT = /* GraphQL */ `
  query Document($workspaceId: ID!, $id: ID!, $chunks: Int!) {
    document(workspaceId: $workspaceId, id: $id) {
      id
      title
      url
      kind
      tokenCount
      chunkCount
      updatedAt
      chunks(first: $chunks) {
        index
        text
        startOffset
        endOffset
        sectionPath
      }
    }
  }
`;

export const DELETE_DOCUMENT = /* GraphQL */ `
  mutation DeleteDocument($workspaceId: ID!, $id: ID!) {
    deleteDocument(workspaceId: $workspaceId, id: $id) {
      deleted
      corpusVersion
    }
  }
`;

export const REFRESH_DOCUMENT = /* GraphQL */ `
  mutation RefreshDocument($workspaceId: ID!, $id: ID!) {
    refreshDocument(workspaceId: $workspaceId, id: $id) {
      ...IngestResultFields
    }
  }
  ${INGEST_RESULT_FIELDS}
`;

/**
 * The console's own: the SDK streams an answer over REST (`POST /answer/stream`, flat events) and
 * sends no GraphQL subscription; its RAG_ANSWER is the `ragAnswer` mutation, the whole answer at once.
 */
export const ANSWER_STREAM = /* GraphQL */ `
  subscription AnswerStream($input: RagAnswerInput!) {
    ragAnswerStream(input: $input) {
      type
      stage
      status
      ms
      text
      citation {
        ...CitationFields
      }
      answer {
        ...AnswerFields
      }
      error {
        code
        message
        retryable
      }
    }
  }
  ${ANSWER_FIELDS}
`;

export const CRAWL_SITE = /* GraphQL */ `
  mutation CrawlSite($input: CrawlSiteInput!) {
    crawlSite(input: $input) {
      mode
      jobs {
        ...JobFields
      }
      summary {
        site
        chunks
        seconds
        stoppedBy
        pages {
          requested
          fetched
          notModified
          gone
          disallowed
          skipped
          failed
        }
        documents {
          added
          updated
          unchanged
          removed
          failed
        }
        failures {
          sourceId
          code
          message
        }
      }
    }
  }
  ${JOB_FIELDS}
`;

export const JOBS = /* GraphQL */ `
  query Jobs($workspaceId: ID!, $first: Int) {
    jobs(workspaceId: $workspaceId, first: $first) {
      queue
      jobs {
        ...JobFields
      }
    }
  }
  ${JOB_FIELDS}
`;

export const DEAD_LETTERS = /* GraphQL */ `
  query DeadLetters {
    deadLetters(limit: 100) {
      id
      kind
      document
      workspaceId
      error
      attempts
      failedAt
    }
  }
`;

export const RETRY_DEAD_LETTERS = /* GraphQL */ `
  mutation RetryDeadLetters($ids: [ID!]) {
    retryDeadLetters(ids: $ids)
  }
`;

export const EVAL_RUNS = /* GraphQL */ `
  query EvalRuns($limit: Int) {
    evalRuns(limit: $limit) {
      id
      startedAt
      dataset
      workspaceId
      answerer
      k
      seconds
      questions
      answerable
      hitRate
      mrr
      answerRecall
      citationCoverage
      citationPrecision
      refusalAccuracy
      refusedWhenRequired
      refusalRequired
      falseRefusals
      endpointPrecisionAt1
      latencyP50Ms
      latencyP95Ms
    }
  }
`;

/** One run's stage latencies and categories: in the list they would exceed the query cost limit. */
export const EVAL_RUN = /* GraphQL */ `
  query EvalRun($id: ID!) {
    evalRun(id: $id) {
      id
      stages {
        stage
        p50Ms
        p95Ms
      }
      categories {
        category
        questions
        hitRate
        mrr
        answerRecall
        refusalAccuracy
      }
    }
  }
`;
