/**
 * `@agentic-rag/core`: the application service, its types and the parts of the core that the apps,
 * the tests and packages/bench use, each name listed. The other doors: `./runtime` (wiring a process:
 * createRuntime, configuration, listening), `./testing` (conformance suites, local test servers),
 * `./cli` (what command mains share). A name joins a list when something outside the core imports
 * it; nothing here re-exports a whole folder (test/architecture.test.ts).
 */
// Errors: the one error type, its codes, and how each transport maps them.
export {
  ERROR_CODE_INFO,
  ErrorCode,
  GRAPHQL_REFUSALS,
  isRagError,
  RagError,
  toRagError,
} from './errors/index.js';
// Configuration: the schema of every variable, loading and redacting it.
export { configSchema, loadConfig, MCP_TOOL_NAMES, redactConfig } from './config/index.js';
export type { Config, McpToolName } from './config/index.js';
// Telemetry: the logger the apps inject, Prometheus metrics and tracing.
export {
  createJsonLogger,
  graphqlOperationDuration,
  httpRequestDuration,
  metricsRegistry,
  silentLogger,
  startTracing,
  watchQueue,
} from './telemetry/index.js';
export type { Logger, Tracing } from './telemetry/index.js';
// Databases: the Sql adapters, migrations, the embedded server.
export { migrate, openEmbedded, PgliteSql, PostgresSql } from './db/index.js';
export type { Sql } from './db/index.js';
// Embedding: the adapters benchmarks build directly.
export { createEmbedder, DeterministicEmbedder } from './embed/index.js';
export type { Embedder } from './embed/index.js';
// Ingestion: the pipeline, loaders, chunking and text normalisation, for benchmarks and datasets.
export {
  chunkText,
  cl100kTokenizer,
  collapseWhitespace,
  discoverFiles,
  IngestPipeline,
  loaderFor,
  loadPdf,
  normalizeText,
  preformattedText,
} from './ingest/index.js';
export type { IngestStore, IngestSummary, Tokenizer } from './ingest/index.js';
// Storage: the corpus and job stores, the integrity check, the lexical index writer.
export {
  addStatistics,
  assertWorkspaceId,
  checkCorpusIntegrity,
  CorpusStore,
  insertChunks,
  integrityViolations,
  JobStore,
  writeSegment,
} from './store/index.js';
export type { StoredDocument, WriteDocumentInput, WriteDocumentResult } from './store/index.js';
// Retrieval: the hybrid retriever, its limits and the context builder.
export {
  buildContext,
  expandReferences,
  HybridRetriever,
  MAX_QUERY_LENGTH,
  OPERATION_TYPES,
} from './retrieve/index.js';
export type { RetrieveOptions } from './retrieve/index.js';
// Graph: entity and relation vocabularies, the hop limit, the Postgres store.
export { MAX_HOPS, NUMBERED_ENTITY_TYPES, PostgresGraphStore, RELATION_TYPES } from './graph/index.js';
export type { SourceGraph } from './graph/index.js';
// Models: the chat adapter and its factory.
export { createLlm, OpenAiChatLlm } from './llm/index.js';
export type { Llm } from './llm/index.js';
// Tools: the private-address guard http_fetch and crawls apply (tests relax it for loopback).
export { isBlockedAddress } from './tools/index.js';
// Answering: the orchestrator and its quarantine of planted instructions.
export { quarantineText, RagOrchestrator } from './orchestrator/index.js';
export type { RagAnswer } from './orchestrator/index.js';
// Queue: the ingest queue and worker, idempotency and dead letters.
export {
  deadLetterQueueName,
  idempotencyKey,
  ingestDocumentPayload,
  IngestQueue,
  payloadSummary,
  sha256,
  startIngestWorker,
} from './queue/index.js';
export type { IngestWorker } from './queue/index.js';
// Crawling: the site crawler and its request parser.
export { parseCrawlRequest, SiteCrawler } from './crawl/index.js';
export type { CrawlSummary } from './crawl/index.js';
// Access: API keys, roles, rate limiting.
export { ApiKeyStore, createRateLimiter, roleAllows } from './auth/index.js';
export type { Role } from './auth/index.js';
// The application service every transport calls, and the input checks transports share with it.
export {
  describeIssue,
  firstDirtyString,
  localOperator,
  MAX_JSON_DEPTH,
  missingWorkspace,
  nestsDeeperThan,
  OPERATION_NAMES,
  parseInput,
  RagService,
  WorkspaceIdSchema,
} from './service/index.js';
export type { AnswerStreamEvent, CachedRead, Caller, Operation } from './service/index.js';
// The runtime's type, for code handed one (createRuntime itself is behind ./runtime).
export type { RagRuntime } from './runtime/index.js';
// The REST contract's vocabulary (docs/rest-contract.md), for the transport's OpenAPI document and
// its own refusals; the reads themselves are service operations (textbookEntity, ...).
export { CONTRACT_RELATION_TYPES, CONTRACT_TRAVERSE_TYPES, invalidParameter } from './textbook/index.js';
