/**
 * The knowledge graph of a workspace. Entities are identified by their resolution key
 * (`Endpoint:POST /locations`, `Algorithm:3.2`), the same on every backend, so ids never leak a
 * backend's internals. Every fact belongs to the source (document) that asserted it: replacing or
 * deleting a source removes exactly its facts, and an entity nothing mentions or relates any
 * more is removed with it.
 *
 * Every method takes one options object; a call whose `signal` is already aborted rejects with
 * ABORTED before it reads or writes anything. How facts are kept in step with the corpus (in the
 * corpus store's transaction, or written around it) is the corpus store's business, not the
 * interface's: see CorpusStore.
 */
export interface GraphStore {
  readonly backend: 'postgres' | 'neo4j';
  /** Replaces everything the source asserted with `graph`. Idempotent. */
  replaceSource(options: ReplaceSourceOptions): Promise<void>;
  /** Removes everything the sources asserted, and the entities left with no facts. */
  deleteSources(options: DeleteSourcesOptions): Promise<void>;
  /** Entities by id; unknown ids are left out. */
  getEntities(options: GetEntitiesOptions): Promise<GraphEntity[]>;
  /** Entities of a type (and optionally with one of the names' resolution keys). */
  findEntities(options: FindEntitiesOptions): Promise<GraphEntity[]>;
  /** Entities within `hops` of the seeds, nearest first, with the edges that reach them. */
  neighbourhood(options: NeighbourhoodOptions): Promise<Neighbourhood>;
  /** The chunks that mention the entities. */
  mentions(options: MentionsOptions): Promise<EntityMention[]>;
  /**
   * Per entity, its `perEntity` strongest mentions (most mentions in the chunk first; which of
   * equally strong ones are kept is the store's choice) and how many chunks mention it in all: the
   * graph channel's read, bounded whatever the corpus size.
   */
  strongestMentions(options: StrongestMentionsOptions): Promise<StrongestMentions>;
  /** The entities the chunks (stable chunk ids) mention: the reverse of `mentions`. */
  mentionedIn(options: MentionedInOptions): Promise<EntityMention[]>;
  stats(options: StatsOptions): Promise<GraphStats>;
  close(): Promise<void>;
}

/** What every call of a GraphStore accepts. */
export interface GraphCallOptions {
  /** Checked before the call does any work (and, where the backend allows, before each statement). */
  signal?: AbortSignal;
}

export interface ReplaceSourceOptions extends GraphCallOptions {
  graph: SourceGraph;
}

export interface DeleteSourcesOptions extends GraphCallOptions {
  workspaceId: string;
  sourcePaths: readonly string[];
}

export interface GetEntitiesOptions extends GraphCallOptions {
  workspaceId: string;
  ids: readonly string[];
}

export interface FindEntitiesOptions extends EntityQuery, GraphCallOptions {
  workspaceId: string;
}

export type NeighbourhoodOptions = NeighbourhoodQuery & GraphCallOptions;

export interface MentionsOptions extends GraphCallOptions {
  workspaceId: string;
  entityIds: readonly string[];
}

export interface StrongestMentionsOptions extends MentionsOptions {
  /** Most mentions kept per entity. */
  perEntity: number;
}

export interface MentionedInOptions extends GraphCallOptions {
  workspaceId: string;
  /** Stable chunk ids (rag_chunks.chunk_id). */
  chunkIds: readonly string[];
}

export interface StatsOptions extends GraphCallOptions {
  workspaceId: string;
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
