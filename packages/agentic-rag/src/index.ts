/**
 * `@agentic-rag/core`: the application service, its types and the parts it is built from. The
 * other doors: `./runtime` (wiring a process: createRuntime, configuration, listening),
 * `./testing` (conformance suites, local test servers), `./bench` (benchmarks and evaluation).
 * Apps import from these, never from internals; this one never re-exports bench, eval or cli code.
 */
export * from './errors/index.js';
export * from './config/index.js';
export * from './telemetry/index.js';
export * from './db/index.js';
export * from './embed/index.js';
export * from './ingest/index.js';
export * from './store/index.js';
export * from './retrieve/index.js';
export type { RagRuntime } from './runtime/index.js';
export * from './graph/index.js';
export * from './llm/index.js';
export * from './tools/index.js';
export * from './cache/index.js';
export * from './orchestrator/index.js';
export * from './conversation/index.js';
export * from './queue/index.js';
export * from './crawl/index.js';
export * from './hyde/index.js';
export * from './knowledge/index.js';
export * from './auth/index.js';
export * from './service/index.js';
// The REST contract's vocabulary (docs/rest-contract.md), for the transport's OpenAPI document and
// its own refusals; the reads themselves are service operations (textbookEntity, ...).
export { CONTRACT_RELATION_TYPES, CONTRACT_TRAVERSE_TYPES, invalidParameter } from './textbook/index.js';
