export { MAX_HOPS } from './breadth-first.js';
export { definingPassage, holdsDefinition } from './definition.js';
export { splitEntityId } from './entity-id.js';
export { ENTITY_TYPES, NUMBERED_ENTITY_TYPES, RELATION_TYPES } from './facts.js';
export type {
  DocumentFacts,
  EntityFact,
  EntityRef,
  KnownEntityType,
  NumberedEntityType,
  RelationFact,
  RelationType,
  Span,
} from './facts.js';
export type {
  DeleteSourcesOptions,
  Direction,
  EntityMention,
  EntityQuery,
  FindEntitiesOptions,
  GetEntitiesOptions,
  GraphCallOptions,
  GraphEdge,
  GraphEntity,
  GraphStats,
  GraphStore,
  MentionedInOptions,
  MentionsOptions,
  Neighbourhood,
  NeighbourEntity,
  NeighbourhoodOptions,
  NeighbourhoodQuery,
  ReplaceSourceOptions,
  SourceEntity,
  SourceGraph,
  SourceRelation,
  StatsOptions,
  StrongestMentions,
  StrongestMentionsOptions,
} from './graph-store.js';
export { Neo4jGraphStore, type Neo4jGraphOptions } from './neo4j.js';
export { PostgresGraphStore } from './postgres.js';
export { entityKey, mergeFacts, normalizeEntityName } from './resolve.js';
export * from './naming/index.js';
export { candidateEntityIds } from './query-entities.js';
export { toSourceGraph, type ChunkSpan } from './source-graph.js';
export {
  BestEffortExtractor,
  DocPageExtractor,
  LlmEntityExtractor,
  entityExtractionPrompt,
  parseExtractionReply,
  type LlmEntityExtractorOptions,
  NumberedEntityExtractor,
  CachingExtractor,
  numberedEntityName,
  OfflineEntityExtractor,
  parseEntityReference,
  type EntityExtractor,
  type EntityReference,
  type ExtractionInput,
} from './extract/index.js';
