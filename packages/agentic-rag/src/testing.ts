/**
 * `@agentic-rag/core/testing`: what tests of the core and of the apps share. The conformance
 * suites every adapter runs (they call vitest's `it`, so only a test file may import them) and the
 * real local servers tests point adapters at: a chat-completions API, a documentation site, a slow
 * embedding API. Never imported by non-test code (test/architecture.test.ts).
 */
export { sqlConformance } from './db/conformance.js';
export { embedderConformance } from './embed/conformance.js';
export { graphStoreContract } from './graph/conformance.js';
export type { GraphFixture } from './graph/conformance.js';
export { chatCompletion, sendJson, startChatServer } from './llm/chat-test-server.js';
export type {
  ChatCompletionsBody,
  ChatHandler,
  ChatServer,
  CompletionFields,
  RecordedChatRequest,
} from './llm/chat-test-server.js';
export {
  fixturePage,
  generatedSitePages,
  serveFixtureSite,
  startSlowEmbeddingServer,
} from './bench/index.js';
export type { FixtureSite, SiteRequest, SlowEmbeddingServer } from './bench/index.js';
