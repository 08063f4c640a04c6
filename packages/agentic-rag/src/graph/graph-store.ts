import type { SqlExecutor } from '../db/index.js';

/**
 * The knowledge graph of a workspace. Entities are identified by their resolution key
 * (`Endpoint:POST /locations`, `Algorithm:3.2`), the same on every backend, so ids never leak a
 * backend's internals. Every fact belongs to the source (document) that asserted it: replacing or
 * deleting a source removes exactly its facts, and an entity nothing mentions or relates any
 * more is removed with it.
 */
export interface GraphStore {
  readonly backend: 'postgres' | 'neo4j';
  /**
   * Whether facts are written in the corpus store's transaction (same database) or after it.
   * An external store is written before the corpus commit: a failure in between leaves facts
   * for chunks that do not exist yet, which readers skip and a retry replaces.
   */
  readonly transactional: boolean;
  /** Replaces everything the source asserted with `graph`. Idempotent. */
  replaceSource(graph: SourceGraph, tx?: SqlExecutor): Promise<void>;
  /** Removes everything the sources asserted, and the entities left with no facts. */
  deleteSources(workspaceId: string, sourcePaths: readonly string[], tx?: SqlExecutor): Promise<void>;
  /** Entities by id; unknown ids are left out. */
  getEntities(workspaceId: string, ids: readonly string[]): Promise<GraphEntity[]>;
  /** Entities of a type (and optionally with one of the names' resolution keys). */
  findEntities(workspaceId: string, query: EntityQuery): Promise<GraphEntity[]>;
  /** Entities within `hops` of the seeds, nearest first, with the edges that reach them. */
  neighbourhood(query: NeighbourhoodQuery): Promise<Neighbourhood>;
  /** The chunks that mention the entities. */
  mentions(workspaceId: string, entityIds: readonly string[]): Promise<EntityMention[]>;
  /**
   * Per entity, its `perEntity` strongest mentions (most mentions in the chunk first; which of
   * equally strong ones are kept is the store's choice) and how many chunks mention it in all: the
   * graph channel's read, bounded whatever the corpus size.
   */
  strongestMentions(
    workspaceId: string,
    entityIds: readonly string[],
    perEntity: number,
  ): Promise<StrongestMentions>;
  /** The entities the chunks (stable chunk ids) mention: the reverse of `mentions`. */
  mentionedIn(workspaceId: string, chunkIds: readonly string[]): Promise<EntityMention[]>;
  stats(workspaceId: string): Promise<GraphStats>;
  close(): Promise<void>;
}

/** What one source asserts, with mentions already mapped to its chunks. */
export interface SourceGraph {
  workspaceId: string;
  sourcePath: string;
  entities: SourceEntity[];
  relations: SourceRelation[];
}

export interface SourceEntity {
  /** Resolution key, `${type}:${normalized name}`. */
  id: string;
  type: string;
  name: string;
  aliases: string[];
  properties: Record<string, unknown>;
  /** Whether this source defines the entity (its properties then come from here). */
  defines: boolean;
  /** Stable chunk ids (rag_chunks.chunk_id) with the number of mentions in each. */
  chunks: Array<{ chunkId: string; count: number }>;
}

export interface SourceRelation {
  from: string;
  to: string;
  type: string;
  weight: number;
}

export interface GraphEntity {
  id: string;
  type: string;
  name: string;
  aliases: string[];
  properties: Record<string, unknown>;
  /** The source that defines it, when one does. */
  definedBy: string | null;
}

export interface EntityQuery {
  type?: string;
  ids?: readonly string[];
  limit?: number;
}

export type Direction = 'out' | 'in' | 'both';

export interface NeighbourhoodQuery {
  workspaceId: string;
  seeds: readonly string[];
  hops: number;
  /** Only these relation types (all when absent). */
  relationTypes?: readonly string[];
  direction?: Direction;
  /** Most entities returned, seeds excluded (default 100). */
  limit?: number;
}

export interface GraphEdge {
  from: string;
  to: string;
  type: string;
  /** Summed over the sources that assert the edge. */
  weight: number;
}

export interface NeighbourEntity extends GraphEntity {
  /** Shortest distance from a seed in hops (0 for a seed). */
  hop: number;
  /** Strongest path weight product from a seed, for ranking within a hop. */
  strength: number;
}

export interface Neighbourhood {
  entities: NeighbourEntity[];
  edges: GraphEdge[];
}

export interface EntityMention {
  entityId: string;
  sourcePath: string;
  chunkId: string;
  count: number;
}

export interface StrongestMentions {
  /** By entity, then chunk id; without the source path, which would cost a join per mention. */
  mentions: Array<Omit<EntityMention, 'sourcePath'>>;
  /** Per entity that has mentions, the number of chunks that mention it. */
  spread: Map<string, number>;
}

export interface GraphStats {
  entities: number;
  relations: number;
  mentions: number;
  sources: number;
}
