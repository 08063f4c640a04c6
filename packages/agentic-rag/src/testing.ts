/**
 * `@agentic-rag/core/testing`: what tests of the core and of the apps share, and what packages/bench
 * draws on too. The conformance suites every adapter runs (they call vitest's `it`, so only a test
 * file may import them), the real local servers tests point adapters at (a chat-completions API, a
 * documentation site), and a seeded random number generator for reproducible data. Never imported
 * by the apps' shipped code (test/architecture.test.ts).
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
export { fixturePage, generatedSitePages, serveFixtureSite } from './crawl/fixture-site.js';
export type { FixtureSite, SiteRequest } from './crawl/fixture-site.js';

/** Small seeded PRNG (mulberry32): the same seed writes the same corpus on every machine. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
