export type { EmbedOptions, EmbedResult, Embedder, EmbeddingPurpose } from './embedder.js';
export { DeterministicEmbedder } from './deterministic.js';
export type { DeterministicEmbedderOptions } from './deterministic.js';
export { OpenAiCompatibleEmbedder } from './openai-compatible.js';
export type { OpenAiCompatibleEmbedderOptions } from './openai-compatible.js';
export { createEmbedder } from './create-embedder.js';
export { wordsOf, stem, STOPWORDS, identifierParts } from './text-features.js';
export { CachingEmbedder } from './caching.js';
