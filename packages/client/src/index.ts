export { AgenticRagClient } from './client.js';
export type { ClientOptions } from './client.js';
export { AgenticRagError } from './errors.js';
export {
  applyFormatter,
  formatKnowledge,
  metadataLines,
  pieceLine,
  relationshipLine,
  sortPieces,
  sortRelationships,
} from './format.js';
export { routeKnowledge } from './route.js';
export type { RouteOptions } from './route.js';
export type { FormatOptions, InfoTypeFormatter } from './format.js';
export type { GraphFact, KnowledgeBundle, ScoredPiece } from './knowledge.js';
export { KnowledgeProvider } from './knowledge-provider.js';
export type { KnowledgeProviderOptions } from './knowledge-provider.js';
export type * from './types.js';
/** The GraphQL documents the client sends and their generated variables and result types. */
export * as operations from './operations.js';
