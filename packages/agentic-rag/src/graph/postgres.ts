import { loadSqlFile, type Sql, type SqlExecutor } from '../db/index.js';
import { throwIfAborted } from './aborted.js';
import { walkNeighbourhood } from './breadth-first.js';
import { splitEntityId } from './entity-id.js';
import type {
  DeleteSourcesOptions,
  EntityMention,
  FindEntitiesOptions,
  GetEntitiesOptions,
  GraphEntity,
  GraphStats,
  GraphStore,
  MentionedInOptions,
  MentionsOptions,
  Neighbourhood,
  NeighbourhoodOptions,
  ReplaceSourceOptions,
  SourceGraph,
  StatsOptions,
  StrongestMentions,
  StrongestMentionsOptions,
} from './graph-store.js';
import { sortMentions, sortStrongest } from './mention-order.js';

const sqlFile = (name: string) => loadSqlFile(new URL(`./sql/${name}`, import.meta.url));
const REMOVE_FACTS = sqlFile('remove-facts.sql');
const DELETE_ORPHANS = sqlFile('delete-orphans.sql');
const UPSERT_ENTITIES = sqlFile('upsert-entities.sql');
const INSERT_MENTIONS = sqlFile('insert-mentions.sql');
const INSERT_RELATIONS = sqlFile('insert-relations.sql');
const LEVEL_EDGES = sqlFile('level-edges.sql');
/** LEVEL_EDGES as one row of arrays, in the statement's own row order. */
const LEVEL_COLUMNS = `SELECT ${['near', 'from_id', 'to_id', 'type', 'weight', 'truncated', 'least']
  .map((column) => `array_agg(${column} ORDER BY edge_order) AS ${column}`)
  .join(', ')}
FROM (SELECT level.*, row_number() OVER () AS edge_order FROM (${LEVEL_EDGES}) AS level) AS numbered`;

const ENTITY_COLUMNS = `e.type || ':' || e.normalized_name AS id, e.type, e.name, e.aliases, e.properties,
  (SELECT d.source_path FROM rag_documents d WHERE d.id = e.defined_by) AS defined_by`;

type MentionRow = {
  entity_id: string;
  source_path: string;
  chunk_id: string;
  count: number;
};

type EntityRow = {
  id: string;
  type: string;
  name: string;
  aliases: string[];
  properties: Record<string, unknown>;
  defined_by: string | null;
};

/**
 * The default graph store: rag_entities / rag_entity_mentions / rag_relations in the corpus's own
 * Postgres. Facts are written in the corpus store's transaction (see `within`), so a document's
 * chunks and its graph facts change together; mentions and relations reference the document and
 * its chunks, and cascade with them.
 */
export class PostgresGraphStore implements GraphStore {
  readonly backend = 'postgres' as const;
  /** The transaction this store's calls run in (see `within`); none: each write opens its own. */
  private bound: SqlExecutor | undefined;

  /**
   * `readEveryEdge` turns off the strongest-edges-first cut of each level and reads every edge
   * of the frontier: the baseline `pnpm bench:graph` compares with.
   */
  constructor(
    private readonly sql: Sql,
    private readonly options: { readEveryEdge?: boolean } = {},
  ) {}

  /**
   * The same store with every call run on `executor`, an open transaction of this database: for
   * the corpus store, which writes a document's facts in the transaction that writes its chunks
   * and so commits or rolls back both. The transaction stays the caller's: nothing here commits it.
   */
  within(executor: SqlExecutor): GraphStore {
    const bound = new PostgresGraphStore(this.sql, this.options);
    bound.bound = executor;
    return bound;
  }

  /** Reads run in the bound transaction (seeing its writes), otherwise on the pool. */
  private get reader(): SqlExecutor {
    return this.bound ?? this.sql;
  }

  /** Writes run in the bound transaction, otherwise in one of their own. */
  private async write(work: (executor: SqlExecutor) => Promise<void>, signal?: AbortSignal): Promise<void> {
    await (this.bound ? work(this.bound) : this.sql.transaction(work, { signal }));
  }

  async replaceSource({ graph, signal }: ReplaceSourceOptions): Promise<void> {
    throwIfAborted(signal);
    await this.write((executor) => this.replaceIn(executor, graph, signal), signal);
  }

  private async replaceIn(tx: SqlExecutor, graph: SourceGraph, signal?: AbortSignal): Promise<void> {
    const document = await tx.query<{ id: number }>(
      'SELECT id FROM rag_documents WHERE workspace_id = $1 AND source_path = $2',
      [graph.workspaceId, graph.sourcePath],
      { signal },
    );
    const documentId = document.rows[0]?.id;
    if (documentId === undefined) return;
    const touched = await tx.query<{ id: number }>(REMOVE_FACTS, [[documentId]], { signal });

    if (graph.entities.length > 0) {
      const keys = graph.entities.map((entity) => splitEntityId(entity.id));
      const upserted = await tx.query<{ id: number; type: string; normalized_name: string }>(
        UPSERT_ENTITIES,
        [
          graph.workspaceId,
          keys.map((key) => key.type),
          keys.map((key) => key.normalized),
          graph.entities.map((entity) => entity.name),
          graph.entities.map((entity) => JSON.stringify(entity.aliases)),
          graph.entities.map((entity) => JSON.stringify(entity.properties)),
          graph.entities.map((entity) => entity.defines),
          documentId,
        ],
        { signal },
      );
      const rowIds = new Map(upserted.rows.map((row) => [`${row.type}:${row.normalized_name}`, row.id]));
      const mentions = graph.entities.flatMap((entity) =>
        entity.chunks.map((chunk) => ({ entity: rowIds.get(entity.id)!, ...chunk })),
      );
      if (mentions.length > 0) {
        await tx.query(
          INSERT_MENTIONS,
          [
            documentId,
            mentions.map((mention) => mention.entity),
            mentions.map((mention) => mention.chunkId),
            mentions.map((mention) => mention.count),
            graph.workspaceId,
          ],
          { signal },
        );
      }
      const relations = graph.relations.filter(
        (relation) => rowIds.has(relation.from) && rowIds.has(relation.to),
      );
      if (relations.length > 0) {
        await tx.query(
          INSERT_RELATIONS,
          [
            graph.workspaceId,
            documentId,
            relations.map((relation) => rowIds.get(relation.from)!),
            relations.map((relation) => rowIds.get(relation.to)!),
            relations.map((relation) => relation.type),
            relations.map((relation) => relation.weight),
          ],
          { signal },
        );
      }
    }
    await tx.query(DELETE_ORPHANS, [touched.rows.map((row) => row.id)], { signal });
  }

  async deleteSources({ workspaceId, sourcePaths, signal }: DeleteSourcesOptions): Promise<void> {
    throwIfAborted(signal);
    if (sourcePaths.length === 0) return;
    await this.write(async (executor) => {
      const documents = await executor.query<{ id: number }>(
        'SELECT id FROM rag_documents WHERE workspace_id = $1 AND source_path = ANY($2::text[])',
        [workspaceId, [...sourcePaths]],
        { signal },
      );
      if (documents.rows.length === 0) return;
      const touched = await executor.query<{ id: number }>(
        REMOVE_FACTS,
        [documents.rows.map((row) => row.id)],
        { signal },
      );
      await executor.query(DELETE_ORPHANS, [touched.rows.map((row) => row.id)], { signal });
    }, signal);
  }

  async getEntities({ workspaceId, ids, signal }: GetEntitiesOptions): Promise<GraphEntity[]> {
    throwIfAborted(signal);
    if (ids.length === 0) return [];
    const keys = ids.map(splitEntityId);
    const result = await this.reader.query<EntityRow>(
      `SELECT ${ENTITY_COLUMNS}
       FROM unnest($2::text[], $3::text[]) WITH ORDINALITY AS k(type, normalized_name, position)
       JOIN rag_entities e ON e.workspace_id = $1 AND e.type = k.type AND e.normalized_name = k.normalized_name
       ORDER BY k.position`,
      [workspaceId, keys.map((key) => key.type), keys.map((key) => key.normalized)],
      { signal },
    );
    return result.rows.map(toEntity);
  }

  async findEntities({ workspaceId, signal, ...query }: FindEntitiesOptions): Promise<GraphEntity[]> {
    throwIfAborted(signal);
    if (query.ids) {
      const found = await this.getEntities({ workspaceId, ids: query.ids, signal });
      return found.filter((entity) => query.type === undefined || entity.type === query.type);
    }
    const result = await this.reader.query<EntityRow>(
      `SELECT ${ENTITY_COLUMNS} FROM rag_entities e
       WHERE e.workspace_id = $1 AND ($2::text IS NULL OR e.type = $2)
       ORDER BY e.type, e.normalized_name LIMIT $3`,
      [workspaceId, query.type ?? null, query.limit ?? 1000],
      { signal },
    );
    return result.rows.map(toEntity);
  }

  async neighbourhood({ signal, ...query }: NeighbourhoodOptions): Promise<Neighbourhood> {
    throwIfAborted(signal);
    return walkNeighbourhood(
      query,
      async (frontier, direction, relationTypes, perEntity) => {
        const keys = frontier.map(splitEntityId);
        // One row a level, each column an array: on the embedded database every row returned has
        // its own cost (a level of ~180 edges: 4.1 ms as rows, 2.8 ms as arrays).
        const result = await this.reader.query<{
          near: string[] | null;
          from_id: string[];
          to_id: string[];
          type: string[];
          weight: number[];
          truncated: Array<boolean | null>;
          least: number[];
        }>(
          LEVEL_COLUMNS,
          [
            query.workspaceId,
            keys.map((key) => key.type),
            keys.map((key) => key.normalized),
            direction,
            relationTypes ? [...relationTypes] : null,
            this.options.readEveryEdge ? null : perEntity,
          ],
          { signal },
        );
        const level = result.rows[0]!;
        const cut = new Map<string, number>();
        const edges = (level.near ?? []).map((near, index) => {
          // Cut on both sides: a left-out edge is bounded by the larger of the two sides' last weights.
          if (level.truncated[index]) cut.set(near, Math.max(cut.get(near) ?? 0, level.least[index]!));
          return {
            from: level.from_id[index]!,
            to: level.to_id[index]!,
            type: level.type[index]!,
            weight: level.weight[index]!,
          };
        });
        return {
          edges,
          cut,
        };
      },
      (ids) => this.getEntities({ workspaceId: query.workspaceId, ids, signal }),
    );
  }

  async mentions({ workspaceId, entityIds, signal }: MentionsOptions): Promise<EntityMention[]> {
    throwIfAborted(signal);
    if (entityIds.length === 0) return [];
    const keys = entityIds.map(splitEntityId);
    const result = await this.reader.query<MentionRow>(
      `SELECT e.type || ':' || e.normalized_name AS entity_id, d.source_path, c.chunk_id, m.mentions AS count
       FROM unnest($2::text[], $3::text[]) AS k(type, normalized_name)
       JOIN rag_entities e ON e.workspace_id = $1 AND e.type = k.type AND e.normalized_name = k.normalized_name
       JOIN rag_entity_mentions m ON m.entity_id = e.id
       JOIN rag_chunks c ON c.id = m.chunk_id
       JOIN rag_documents d ON d.id = m.document_id
       ORDER BY 1, d.source_path, c.chunk_index`,
      [workspaceId, keys.map((key) => key.type), keys.map((key) => key.normalized)],
      { signal },
    );
    return sortMentions(result.rows.map(toMention));
  }

  async strongestMentions({
    workspaceId,
    entityIds,
    perEntity,
    signal,
  }: StrongestMentionsOptions): Promise<StrongestMentions> {
    throwIfAborted(signal);
    if (entityIds.length === 0 || perEntity <= 0) return { mentions: [], spread: new Map() };
    const keys = entityIds.map(splitEntityId);
    // One round trip; per entity an index range scan for the strongest mentions
    // (rag_entity_mentions_strength_idx) and an index-only count for the spread. One row an
    // entity, its mentions as arrays: on the embedded database every row returned has its own
    // cost, and one a mention made this statement 13 ms of a search instead of 5.5.
    const result = await this.reader.query<{
      entity_id: string;
      spread: number;
      chunk_ids: string[] | null;
      counts: number[] | null;
    }>(
      `SELECT e.type || ':' || e.normalized_name AS entity_id, s.spread, top.chunk_ids, top.counts
       FROM unnest($2::text[], $3::text[]) AS k(type, normalized_name)
       JOIN rag_entities e ON e.workspace_id = $1 AND e.type = k.type AND e.normalized_name = k.normalized_name
       CROSS JOIN LATERAL (SELECT count(*)::int AS spread FROM rag_entity_mentions m WHERE m.entity_id = e.id) AS s
       CROSS JOIN LATERAL (
         SELECT array_agg(c.chunk_id) AS chunk_ids, array_agg(strongest.mentions) AS counts
         FROM (
           SELECT m.chunk_id, m.mentions FROM rag_entity_mentions m
           WHERE m.entity_id = e.id ORDER BY m.mentions DESC, m.chunk_id LIMIT $4
         ) AS strongest
         JOIN rag_chunks c ON c.id = strongest.chunk_id
       ) AS top`,
      [workspaceId, keys.map((key) => key.type), keys.map((key) => key.normalized), perEntity],
      { signal },
    );
    const mentions: StrongestMentions['mentions'] = [];
    for (const row of result.rows) {
      const counts = row.counts ?? [];
      (row.chunk_ids ?? []).forEach((chunkId, index) =>
        mentions.push({ entityId: row.entity_id, chunkId, count: counts[index]! }),
      );
    }
    return {
      // Sorted here, not by the database's collation: both stores order like JavaScript.
      mentions: sortStrongest(mentions),
      spread: new Map(
        result.rows.filter((row) => row.chunk_ids).map((row) => [row.entity_id, Number(row.spread)]),
      ),
    };
  }

  async mentionedIn({ workspaceId, chunkIds, signal }: MentionedInOptions): Promise<EntityMention[]> {
    throwIfAborted(signal);
    if (chunkIds.length === 0) return [];
    const result = await this.reader.query<MentionRow>(
      `SELECT e.type || ':' || e.normalized_name AS entity_id, d.source_path, c.chunk_id, m.mentions AS count
       FROM rag_chunks c
       JOIN rag_entity_mentions m ON m.chunk_id = c.id
       JOIN rag_entities e ON e.id = m.entity_id
       JOIN rag_documents d ON d.id = m.document_id
       WHERE c.workspace_id = $1 AND c.chunk_id = ANY($2::text[])`,
      [workspaceId, [...chunkIds]],
      { signal },
    );
    return sortMentions(result.rows.map(toMention));
  }

  async stats({ workspaceId, signal }: StatsOptions): Promise<GraphStats> {
    throwIfAborted(signal);
    const result = await this.reader.query<GraphStats & Record<string, number>>(
      `SELECT (SELECT count(*) FROM rag_entities WHERE workspace_id = $1)::int AS entities,
              (SELECT count(*) FROM rag_relations WHERE workspace_id = $1)::int AS relations,
              (SELECT count(*) FROM rag_entity_mentions m JOIN rag_entities e ON e.id = m.entity_id
               WHERE e.workspace_id = $1)::int AS mentions,
              (SELECT count(DISTINCT document_id) FROM (
                 SELECT m.document_id FROM rag_entity_mentions m JOIN rag_entities e ON e.id = m.entity_id
                 WHERE e.workspace_id = $1
                 UNION SELECT document_id FROM rag_relations WHERE workspace_id = $1) AS s)::int AS sources`,
      [workspaceId],
      { signal },
    );
    return result.rows[0]!;
  }

  /** The Sql (and a bound transaction) is the corpus store's; its owner closes it. */
  async close(): Promise<void> {}
}

/** A row of the mention statements, which select the same columns. */
function toMention(row: MentionRow): EntityMention {
  return { entityId: row.entity_id, sourcePath: row.source_path, chunkId: row.chunk_id, count: row.count };
}

function toEntity(row: EntityRow): GraphEntity {
  return {
    id: row.id,
    type: row.type,
    name: row.name,
    aliases: row.aliases,
    properties: row.properties,
    definedBy: row.defined_by,
  };
}
