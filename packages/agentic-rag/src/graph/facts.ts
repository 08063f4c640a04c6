/**
 * Graph facts as extractors and structured loaders produce them, before they are resolved to
 * nodes of a workspace's graph. Offsets are UTF-16 indexes into the document's text (the
 * pipeline maps them to the chunks that contain them).
 */

/** Textbook entities named by their number ("Algorithm 3.2"), and their containers. */
export const NUMBERED_ENTITY_TYPES = [
  'Formula',
  'Algorithm',
  'Table',
  'Figure',
  'Example',
  'Exercise',
  'Section',
  'Chapter',
  'Appendix',
] as const;

export type NumberedEntityType = (typeof NUMBERED_ENTITY_TYPES)[number];

/** Entity types the product knows; extractors may add their own (any PascalCase word). */
export const ENTITY_TYPES = [
  // API specifications
  'Resource',
  'Endpoint',
  'OperationType',
  'Schema',
  'Field',
  'ErrorCode',
  ...NUMBERED_ENTITY_TYPES,
  // free text
  'Identifier',
  'Acronym',
  'Concept',
  // documentation pages (DocPage{url, title}, docs/graph.md)
  'DocPage',
] as const;

export type KnownEntityType = (typeof ENTITY_TYPES)[number];

/** Relation types; REFERENCED_BY is never stored, it is REFERENCES read backwards. */
export const RELATION_TYPES = [
  'RELATED',
  'MENTIONS',
  'DERIVED_FROM',
  'RESOURCE_HAS_ENDPOINT',
  'OPERATION_TYPE',
  'USES_FIELD',
  'REFERENCES',
  'DOC_DESCRIBES',
  'USES_IN',
  'CITES',
  'PART_OF',
  'FOLLOWS',
  'RELATED_TO',
] as const;

export type RelationType = (typeof RELATION_TYPES)[number];

/** A reference to an entity by what identifies it: its type and its name as written. */
export interface EntityRef {
  type: string;
  name: string;
}

/** Where in the document's text an entity is written. */
export interface Span {
  start: number;
  end: number;
}

export interface EntityFact extends EntityRef {
  /** Other spellings that denote the same thing ("POMDP" for "partially observable MDP"). */
  aliases?: string[];
  /** Type-specific attributes: number, title, chapter, section, page, method, path, ... */
  properties?: Record<string, unknown>;
  /** Every place the document mentions the entity. */
  mentions: Span[];
  /** Where the document defines the entity (an algorithm's caption and block), when it does. */
  definition?: Span;
}

export interface RelationFact {
  from: EntityRef;
  to: EntityRef;
  type: RelationType;
  /** Strength of the assertion (co-mention counts, say); 1 when the relation is simply stated. */
  weight?: number;
  properties?: Record<string, unknown>;
}

/** Everything one document asserts about the graph. */
export interface DocumentFacts {
  entities: EntityFact[];
  relations: RelationFact[];
}
