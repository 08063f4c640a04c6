export { AgenticRagClient } from './client.js';
export type { ClientOptions } from './client.js';
export { AgenticRagError } from './errors.js';
export { applyFormatter, formatKnowledge, pieceLine } from './format.js';
export type { FormatOptions, InfoTypeFormatter } from './format.js';
export type { GraphFact, KnowledgeBundle, ScoredPiece } from './knowledge.js';
export { KnowledgeProvider } from './knowledge-provider.js';
export type { KnowledgeProviderOptions } from './knowledge-provider.js';
export type * from './types.js';
