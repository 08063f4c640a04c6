/**
 * `@agentic-rag/core/bench`: what benchmarks and evaluations are built from (synthetic corpora,
 * scratch databases, IR metrics, the BEIR and golden-set runners). The services never import it
 * (test/architecture.test.ts): measuring code is not shipped in a request path.
 */
export * from './bench/index.js';
export * from './eval/index.js';
