export { MAX_HOPS } from './breadth-first.js';
export { definingPassage, holdsDefinition } from './definition.js';
export { splitEntityId } from './entity-id.js';
export { ENTITY_TYPES, RELATION_TYPES } from './facts.js';
export type {
  DocumentFacts,
  EntityFact,
  EntityRef,
  KnownEntityType,
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
export {
  VERSION_SEGMENT,
  isPluralName,
  nameWords,
  pluralWord,
  resourceForms,
  resourceName,
  resourceOfPath,
  resourceOfSchema,
} from './naming/index.js';
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
  NUMBERED_ENTITY_TYPES,
  CachingExtractor,
  numberedEntityName,
  OfflineEntityExtractor,
  parseEntityReference,
  type EntityExtractor,
  type EntityReference,
  type ExtractionInput,
  type NumberedEntityType,
} from './extract/index.js';
