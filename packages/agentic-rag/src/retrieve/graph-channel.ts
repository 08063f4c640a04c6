import type { Sql } from '../db/index.js';
import { candidateEntityIds, type GraphStore } from '../graph/index.js';
import type { ChannelResult } from './channels.js';
import { filterConditions, type RetrievalFilters } from './filters.js';

export interface GraphChannelOptions {
  workspaceId: string;
  query: string;
  /** Stable chunk ids of the other channels' best hits: their entities seed the walk too. */
  seedChunks: readonly string[];
  hops: number;
  /** Most chunks returned. */
  limit: number;
  /** The same narrowing the other channels apply. */
  filters: RetrievalFilters;
  signal?: AbortSignal;
}

export interface GraphChannelResult extends ChannelResult {
  /** Per returned chunk row id, the entities that brought it in (strongest first). */
  via: Map<number, string[]>;
  /** The entities the question itself named. */
  queryEntities: string[];
}

/**
 * Seeds named by the question count fully; seeds taken from other channels' hits (at most
 * HIT_SEEDS, the most mentioned there) a quarter, so they widen the net without outvoting the
 * question.
 */
const HIT_SEED_STRENGTH = 0.25;
const HIT_SEEDS = 8;
const NEIGHBOUR_LIMIT = 40;
/**
 * Mentions read per entity, the strongest first. A chunk's share from one entity grows with its
 * mention count, so an entity's weakest mentions are the ones that matter least; without a bound a
 * common entity read every chunk naming it (3,500 rows a search at 6k chunks, most of the
 * channel's time). 64 changed one hybrid row of `rag:eval --suites retrieval` (python dev,
 * 0.5853 to 0.5828) and none of the others; 16 was twice as fast and moved all five, by -0.004 to
 * +0.006, and broke a follow-up question's ranking on the sample.
 */
const MENTIONS_PER_ENTITY = 64;
/** Mentions read in all, about, shared by the entities (each gets at least MENTIONS_PER_ENTITY). */
const MENTIONS_PER_RESULT = 4;

/**
 * A doc page is "mentioned" only by the chunk holding its opening: a structural link for
 * graph_find_endpoints' doc_url, not something the text says. Scored like a content entity, it made
 * every document's opening chunk (an author and date header, often) the graph's best hit for any
 * question its other chunks answered.
 */
const isStructural = (entityId: string) => entityId.startsWith('DocPage:');

/**
 * The graph channel: entities the question names (and those the best dense and lexical hits
 * mention) seed a neighbourhood of `hops`; the chunks that mention its entities are scored by
 * Σ strength(entity) / (1 + hop) · (1 + ln mentions) / ln(2 + chunks mentioning the entity), so
 * nearer, more strongly connected and more specific entities count more. A ubiquitous entity
 * (the company name) lifts every chunk a little and none much. Each entity brings at most its
 * strongest chunks (a share of a fixed budget); its spread counts them all.
 */
export async function graphChannel(
  sql: Sql,
  graph: GraphStore,
  options: GraphChannelOptions,
): Promise<GraphChannelResult> {
  const started = performance.now();
  const empty = (queryEntities: string[] = []): GraphChannelResult => ({
    ids: [],
    scores: [],
    ms: performance.now() - started,
    via: new Map(),
    queryEntities,
  });
  const { workspaceId, signal } = options;
  const [named, fromHits] = await Promise.all([
    graph.getEntities({ workspaceId, ids: candidateEntityIds(options.query), signal }),
    graph.mentionedIn({ workspaceId, chunkIds: options.seedChunks, signal }),
  ]);
  const queryEntities = named.map((entity) => entity.id);
  // Seeded by the hits alone, the walk is only pseudo-relevance feedback over co-mentions (on
  // the BEIR sample a little worse: nDCG@10 0.8238 against 0.8252): the channel speaks when the
  // question names something the graph knows.
  if (queryEntities.length === 0) return empty();
  const seedStrength = new Map<string, number>(queryEntities.map((id) => [id, 1]));
  const inHits = new Map<string, number>();
  for (const mention of fromHits.filter((found) => !isStructural(found.entityId)))
    inHits.set(mention.entityId, (inHits.get(mention.entityId) ?? 0) + mention.count);
  const hitSeeds = [...inHits.entries()]
    .filter(([id]) => !seedStrength.has(id))
    .sort((left, right) => right[1] - left[1] || (left[0] < right[0] ? -1 : 1))
    .slice(0, HIT_SEEDS);
  for (const [id] of hitSeeds) seedStrength.set(id, HIT_SEED_STRENGTH);
  if (seedStrength.size === 0) return empty(queryEntities);

  const around = await graph.neighbourhood({
    workspaceId: options.workspaceId,
    seeds: [...seedStrength.keys()],
    hops: options.hops,
    limit: NEIGHBOUR_LIMIT,
    signal,
  });
  // A neighbour inherits the strength of the strongest seed it hangs off, at most; the walk's
  // own strength (edge weights along the path) scales it down from there.
  const strongestSeed = Math.max(...seedStrength.values());
  const weightOf = new Map(
    around.entities.map((entity) => [
      entity.id,
      (entity.hop === 0 ? seedStrength.get(entity.id)! : strongestSeed * entity.strength) / (1 + entity.hop),
    ]),
  );
  const entities = [...weightOf.keys()].filter((id) => !isStructural(id));
  const { mentions, spread } = await graph.strongestMentions({
    workspaceId,
    entityIds: entities,
    perEntity: Math.max(
      MENTIONS_PER_ENTITY,
      Math.ceil((MENTIONS_PER_RESULT * options.limit) / Math.max(1, entities.length)),
    ),
    signal,
  });

  const scores = new Map<string, { score: number; via: Array<[string, number]> }>();
  for (const mention of mentions) {
    const contribution =
      (weightOf.get(mention.entityId)! * (1 + Math.log(mention.count))) /
      Math.log(2 + spread.get(mention.entityId)!);
    const entry = scores.get(mention.chunkId) ?? { score: 0, via: [] };
    entry.score += contribution;
    entry.via.push([mention.entityId, contribution]);
    scores.set(mention.chunkId, entry);
  }
  const best = [...scores.entries()]
    .sort((left, right) => right[1].score - left[1].score || (left[0] < right[0] ? -1 : 1))
    .slice(0, options.limit);
  if (best.length === 0) return empty(queryEntities);

  // Graph stores name chunks by their stable ids; fusion works on row ids. Filters apply here.
  const filters = filterConditions(options.filters, 3);
  const rows = await sql.query<{ id: number; chunk_id: string }>(
    `SELECT c.id, c.chunk_id FROM rag_chunks c JOIN rag_documents d ON d.id = c.document_id
     WHERE c.workspace_id = $1 AND c.chunk_id = ANY($2::text[])${filters.sql}`,
    [options.workspaceId, best.map(([chunkId]) => chunkId), ...filters.params],
  );
  const rowIds = new Map(rows.rows.map((row) => [row.chunk_id, row.id]));
  const kept = best.filter(([chunkId]) => rowIds.has(chunkId));
  return {
    ids: kept.map(([chunkId]) => rowIds.get(chunkId)!),
    scores: kept.map(([, entry]) => entry.score),
    ms: performance.now() - started,
    via: new Map(
      kept.map(([chunkId, entry]) => [
        rowIds.get(chunkId)!,
        entry.via.sort((left, right) => right[1] - left[1]).map(([id]) => id),
      ]),
    ),
    queryEntities,
  };
}
