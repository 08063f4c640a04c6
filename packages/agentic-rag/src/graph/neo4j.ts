import neo4j, {
  type Driver,
  type ManagedTransaction,
  type Record as Neo4jRecord,
  type Session,
} from 'neo4j-driver';
import { ErrorCode, RagError } from '../errors/index.js';
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
  StatsOptions,
  StrongestMentions,
  StrongestMentionsOptions,
} from './graph-store.js';
import { sortMentions } from './mention-order.js';
import { strongestOf } from './strongest.js';

export interface Neo4jGraphOptions {
  uri: string;
  user: string;
  password: string;
  database?: string;
}

/**
 * Neo4j 5 through neo4j-driver. Nodes `RagEntity` and `RagSource`; `(RagSource)-[:MENTIONS]->
 * (RagEntity)` with the chunk ids and counts, `(RagEntity)-[:DERIVED_FROM]->(RagSource)` for the
 * source that defines an entity, and `(RagEntity)-[:RELATED {type, weight, sourceUid}]->
 * (RagEntity)` once per asserting source (relationship types cannot be query parameters, so the
 * typed relations of specs and textbooks are the `type` property). Node identity is `uid` =
 * workspace + NUL + id, one unique property, which every edition can constrain.
 *
 * The driver takes no AbortSignal: a call's signal is checked before each transaction it opens
 * (each level of a neighbourhood walk is one), and a transaction already sent runs to its end.
 */
export class Neo4jGraphStore implements GraphStore {
  readonly backend = 'neo4j' as const;
  private ready: Promise<void> | undefined;

  private constructor(
    private readonly driver: Driver,
    private readonly database: string | undefined,
  ) {}

  static async open(options: Neo4jGraphOptions): Promise<Neo4jGraphStore> {
    const driver = neo4j.driver(options.uri, neo4j.auth.basic(options.user, options.password), {
      disableLosslessIntegers: true,
    });
    const store = new Neo4jGraphStore(driver, options.database);
    try {
      await driver.verifyConnectivity();
      await store.ensureSchema();
    } catch (error) {
      await driver.close();
      throw new RagError(
        ErrorCode.STORE_UNAVAILABLE,
        `cannot use Neo4j at ${options.uri}: ${(error as Error).message}`,
        {
          cause: error,
        },
      );
    }
    return store;
  }

  private ensureSchema(): Promise<void> {
    this.ready ??= (async () => {
      const session = this.driver.session(this.sessionOptions());
      try {
        for (const statement of [
          'CREATE CONSTRAINT rag_entity_uid IF NOT EXISTS FOR (e:RagEntity) REQUIRE e.uid IS UNIQUE',
          'CREATE CONSTRAINT rag_source_uid IF NOT EXISTS FOR (s:RagSource) REQUIRE s.uid IS UNIQUE',
          'CREATE INDEX rag_entity_workspace IF NOT EXISTS FOR (e:RagEntity) ON (e.workspaceId, e.type)',
          'CREATE INDEX rag_related_source IF NOT EXISTS FOR ()-[r:RELATED]-() ON (r.sourceUid)',
        ]) {
          await session.run(statement);
        }
      } finally {
        await session.close();
      }
    })();
    return this.ready;
  }

  private sessionOptions() {
    return this.database ? { database: this.database } : {};
  }

  private write<T>(work: (tx: ManagedTransaction) => Promise<T>, signal?: AbortSignal): Promise<T> {
    return this.inSession((session) => session.executeWrite(work), signal);
  }

  private read<T>(work: (tx: ManagedTransaction) => Promise<T>, signal?: AbortSignal): Promise<T> {
    return this.inSession((session) => session.executeRead(work), signal);
  }

  /** One session a transaction, closed after it; driver errors become store errors. */
  private async inSession<T>(run: (session: Session) => Promise<T>, signal?: AbortSignal): Promise<T> {
    throwIfAborted(signal);
    const session = this.driver.session(this.sessionOptions());
    try {
      return await run(session);
    } catch (error) {
      throw asStoreError(error);
    } finally {
      await session.close();
    }
  }

  async replaceSource({ graph, signal }: ReplaceSourceOptions): Promise<void> {
    throwIfAborted(signal);
    const src = uid(graph.workspaceId, graph.sourcePath);
    await this.write(async (tx) => {
      const touched = await removeSourceFacts(tx, src);
      await tx.run(
        // RagSource {id, workspaceId} as docs/graph.md has it: the id is the source path (uid adds
        // the workspace).
        'MERGE (s:RagSource {uid: $src}) ON CREATE SET s.id = $path, s.workspaceId = $ws, s.sourcePath = $path',
        {
          src,
          ws: graph.workspaceId,
          path: graph.sourcePath,
        },
      );
      await tx.run(
        `MATCH (s:RagSource {uid: $src})
         UNWIND $entities AS row
         MERGE (e:RagEntity {uid: row.uid})
           ON CREATE SET e.workspaceId = $ws, e.id = row.id, e.type = row.type, e.name = row.name,
                         e.aliases = [], e.properties = '{}', e.definedBy = null
         SET e.aliases = reduce(acc = [], a IN e.aliases + row.aliases | CASE WHEN a IN acc THEN acc ELSE acc + a END)
         FOREACH (_ IN CASE WHEN row.defines THEN [1] ELSE [] END |
           SET e.name = row.name, e.properties = row.properties, e.definedBy = $path
           MERGE (e)-[:DERIVED_FROM]->(s))
         FOREACH (_ IN CASE WHEN size(row.chunkIds) > 0 THEN [1] ELSE [] END |
           MERGE (s)-[m:MENTIONS]->(e)
           SET m.chunkIds = row.chunkIds, m.counts = row.counts)`,
        {
          src,
          ws: graph.workspaceId,
          path: graph.sourcePath,
          entities: graph.entities.map((entity) => ({
            uid: uid(graph.workspaceId, entity.id),
            id: entity.id,
            type: entity.type,
            name: entity.name,
            aliases: [...entity.aliases].sort(),
            properties: JSON.stringify(entity.properties),
            defines: entity.defines,
            chunkIds: entity.chunks.map((chunk) => chunk.chunkId),
            counts: entity.chunks.map((chunk) => chunk.count),
          })),
        },
      );
      // One RELATED edge per (from, to, type) and source, duplicates within the source summed.
      const relations = new Map<string, { from: string; to: string; type: string; weight: number }>();
      for (const relation of graph.relations) {
        if (relation.from === relation.to) continue;
        const key = `${relation.from}\u0000${relation.to}\u0000${relation.type}`;
        const existing = relations.get(key);
        if (existing) existing.weight += relation.weight;
        else
          relations.set(key, {
            from: uid(graph.workspaceId, relation.from),
            to: uid(graph.workspaceId, relation.to),
            type: relation.type,
            weight: relation.weight,
          });
      }
      await tx.run(
        `UNWIND $relations AS rel
         MATCH (a:RagEntity {uid: rel.from}), (b:RagEntity {uid: rel.to})
         CREATE (a)-[:RELATED {type: rel.type, weight: rel.weight, sourceUid: $src, workspaceId: $ws}]->(b)`,
        { relations: [...relations.values()], src, ws: graph.workspaceId },
      );
      await deleteOrphans(tx, touched);
    }, signal);
  }

  async deleteSources({ workspaceId, sourcePaths, signal }: DeleteSourcesOptions): Promise<void> {
    throwIfAborted(signal);
    if (sourcePaths.length === 0) return;
    await this.write(async (tx) => {
      for (const sourcePath of sourcePaths) {
        const src = uid(workspaceId, sourcePath);
        const touched = await removeSourceFacts(tx, src);
        await deleteOrphans(tx, touched);
        await tx.run('MATCH (s:RagSource {uid: $src}) DETACH DELETE s', { src });
      }
    }, signal);
  }

  async getEntities({ workspaceId, ids, signal }: GetEntitiesOptions): Promise<GraphEntity[]> {
    throwIfAborted(signal);
    if (ids.length === 0) return [];
    const rows = await this.read(async (tx) => {
      const result = await tx.run(
        `UNWIND range(0, size($uids) - 1) AS position
         MATCH (e:RagEntity {uid: $uids[position]})
         RETURN e {.id, .type, .name, .aliases, .properties, .definedBy} AS entity
         ORDER BY position`,
        { uids: ids.map((id) => uid(workspaceId, id)) },
      );
      return result.records.map((record) => record.get('entity') as EntityRecord);
    }, signal);
    return rows.map(toEntity);
  }

  async findEntities({ workspaceId, signal, ...query }: FindEntitiesOptions): Promise<GraphEntity[]> {
    throwIfAborted(signal);
    if (query.ids) {
      const found = await this.getEntities({ workspaceId, ids: query.ids, signal });
      return found.filter((entity) => query.type === undefined || entity.type === query.type);
    }
    const rows = await this.read(async (tx) => {
      const result = await tx.run(
        `MATCH (e:RagEntity) WHERE e.workspaceId = $ws AND ($type IS NULL OR e.type = $type)
         RETURN e {.id, .type, .name, .aliases, .properties, .definedBy} AS entity
         ORDER BY e.id LIMIT $limit`,
        { ws: workspaceId, type: query.type ?? null, limit: neo4j.int(query.limit ?? 1000) },
      );
      return result.records.map((record) => record.get('entity') as EntityRecord);
    }, signal);
    return rows.map(toEntity);
  }

  async neighbourhood({ signal, ...query }: NeighbourhoodOptions): Promise<Neighbourhood> {
    throwIfAborted(signal);
    // Every edge, summed over sources at read time: Neo4j keeps no per-pair weight to walk in order.
    return walkNeighbourhood(
      query,
      (frontier, direction, relationTypes) =>
        this.read(async (tx) => {
          // An edge between two frontier entities matches from both ends: DISTINCT r counts it once.
          const result = await tx.run(
            `UNWIND $frontier AS fid
           MATCH (f:RagEntity {uid: fid})-[r:RELATED]-(:RagEntity)
           WHERE ($types IS NULL OR r.type IN $types)
             AND (($direction <> 'in' AND startNode(r) = f) OR ($direction <> 'out' AND endNode(r) = f))
           WITH DISTINCT r
           RETURN startNode(r).id AS from, endNode(r).id AS to, r.type AS type, sum(r.weight) AS weight`,
            {
              frontier: frontier.map((id) => uid(query.workspaceId, id)),
              direction,
              types: relationTypes ? [...relationTypes] : null,
            },
          );
          const level = result.records.map((record) => ({
            from: record.get('from') as string,
            to: record.get('to') as string,
            type: record.get('type') as string,
            weight: Number(record.get('weight')),
          }));
          return { edges: level, cut: new Map<string, number>() };
        }, signal),
      (ids) => this.getEntities({ workspaceId: query.workspaceId, ids, signal }),
    );
  }

  async mentions({ workspaceId, entityIds, signal }: MentionsOptions): Promise<EntityMention[]> {
    throwIfAborted(signal);
    if (entityIds.length === 0) return [];
    return this.read(async (tx) => {
      const result = await tx.run(
        `UNWIND $uids AS eid
         MATCH (s:RagSource)-[m:MENTIONS]->(e:RagEntity {uid: eid})
         UNWIND range(0, size(m.chunkIds) - 1) AS i
         RETURN e.id AS entityId, s.sourcePath AS sourcePath, m.chunkIds[i] AS chunkId, m.counts[i] AS count`,
        { uids: entityIds.map((id) => uid(workspaceId, id)) },
      );
      return sortMentions(result.records.map(toMention));
    }, signal);
  }

  async strongestMentions({ perEntity, ...mentions }: StrongestMentionsOptions): Promise<StrongestMentions> {
    return strongestOf(await this.mentions(mentions), perEntity);
  }

  async mentionedIn({ workspaceId, chunkIds, signal }: MentionedInOptions): Promise<EntityMention[]> {
    throwIfAborted(signal);
    if (chunkIds.length === 0) return [];
    return this.read(async (tx) => {
      const result = await tx.run(
        `MATCH (s:RagSource)-[m:MENTIONS]->(e:RagEntity)
         WHERE s.workspaceId = $ws AND any(c IN m.chunkIds WHERE c IN $chunkIds)
         UNWIND range(0, size(m.chunkIds) - 1) AS i
         WITH s, e, m, i WHERE m.chunkIds[i] IN $chunkIds
         RETURN e.id AS entityId, s.sourcePath AS sourcePath, m.chunkIds[i] AS chunkId, m.counts[i] AS count`,
        { ws: workspaceId, chunkIds: [...chunkIds] },
      );
      return sortMentions(result.records.map(toMention));
    }, signal);
  }

  async stats({ workspaceId, signal }: StatsOptions): Promise<GraphStats> {
    throwIfAborted(signal);
    return this.read(async (tx) => {
      const result = await tx.run(
        `CALL { MATCH (e:RagEntity) WHERE e.workspaceId = $ws RETURN count(e) AS entities }
         CALL { MATCH ()-[r:RELATED]->() WHERE r.workspaceId = $ws RETURN count(r) AS relations }
         CALL { MATCH (s:RagSource)-[m:MENTIONS]->() WHERE s.workspaceId = $ws
                   RETURN coalesce(sum(size(m.chunkIds)), 0) AS mentions, count(DISTINCT s) AS mentioning }
         CALL { MATCH (s:RagSource) WHERE s.workspaceId = $ws AND EXISTS { (s)--() }
                   RETURN count(s) AS sources }
         RETURN entities, relations, mentions, sources`,
        { ws: workspaceId },
      );
      const record = result.records[0]!;
      return {
        entities: Number(record.get('entities')),
        relations: Number(record.get('relations')),
        mentions: Number(record.get('mentions')),
        sources: Number(record.get('sources')),
      };
    }, signal);
  }

  async close(): Promise<void> {
    await this.driver.close();
  }
}

interface EntityRecord {
  id: string;
  type: string;
  name: string;
  aliases: string[] | null;
  properties: string | null;
  definedBy: string | null;
}

function toEntity(record: EntityRecord): GraphEntity {
  return {
    id: record.id,
    type: record.type,
    name: record.name,
    aliases: record.aliases ?? [],
    properties: record.properties ? (JSON.parse(record.properties) as Record<string, unknown>) : {},
    definedBy: record.definedBy ?? null,
  };
}

/** Node identity; the id is validated so both backends reject the same malformed ids. */
function uid(workspaceId: string, id: string): string {
  splitEntityId(id);
  return `${workspaceId}\u0000${id}`;
}

/** A row of the mention statements, which return the same columns. */
function toMention(record: Neo4jRecord): EntityMention {
  return {
    entityId: record.get('entityId') as string,
    sourcePath: record.get('sourcePath') as string,
    chunkId: record.get('chunkId') as string,
    count: Number(record.get('count')),
  };
}

/** Removes a source's mentions, definitions and relations; returns the entity uids they touched. */
async function removeSourceFacts(tx: ManagedTransaction, src: string): Promise<string[]> {
  const touched = await tx.run(
    `OPTIONAL MATCH (s:RagSource {uid: $src})-[:MENTIONS]->(m:RagEntity)
     WITH collect(DISTINCT m.uid) AS mentioned
     OPTIONAL MATCH (d:RagEntity)-[:DERIVED_FROM]->(:RagSource {uid: $src})
     WITH mentioned, collect(DISTINCT d.uid) AS defined
     OPTIONAL MATCH (a:RagEntity)-[r:RELATED {sourceUid: $src}]->(b:RagEntity)
     WITH mentioned, defined, collect(DISTINCT a.uid) AS froms, collect(DISTINCT b.uid) AS tos
     RETURN mentioned + defined + froms + tos AS touched`,
    { src },
  );
  await tx.run('MATCH (:RagSource {uid: $src})-[m:MENTIONS]->() DELETE m', { src });
  await tx.run(
    `MATCH (d:RagEntity)-[x:DERIVED_FROM]->(:RagSource {uid: $src})
     SET d.properties = '{}', d.definedBy = null
     DELETE x`,
    { src },
  );
  await tx.run('MATCH ()-[r:RELATED {sourceUid: $src}]->() DELETE r', { src });
  return [...new Set(touched.records[0]?.get('touched') as string[])];
}

/** An entity nothing mentions and nothing relates is a stale fact: it goes. */
async function deleteOrphans(tx: ManagedTransaction, uids: readonly string[]): Promise<void> {
  if (uids.length === 0) return;
  await tx.run(
    `UNWIND $uids AS eid
     MATCH (e:RagEntity {uid: eid})
     WHERE NOT EXISTS { (e)<-[:MENTIONS]-() } AND NOT EXISTS { (e)-[:RELATED]-() }
     DETACH DELETE e`,
    { uids: [...uids] },
  );
}

function asStoreError(error: unknown): RagError {
  if (error instanceof RagError) return error;
  const code = (error as { code?: string }).code ?? '';
  const unavailable = code === 'ServiceUnavailable' || code === 'SessionExpired';
  return new RagError(
    unavailable ? ErrorCode.STORE_UNAVAILABLE : ErrorCode.INTERNAL,
    `neo4j: ${(error as Error).message}`,
    { cause: error },
  );
}
