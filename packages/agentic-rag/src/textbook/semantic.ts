import type { GraphEntity } from '../graph/index.js';
import type { RagRuntime } from '../runtime/index.js';
import { assertKnownFields, invalid, isObject, traverseTypes } from './problems.js';
import {
  definitions,
  entityFields,
  TRAVERSE_TYPES,
  type EntityFields,
  type TraverseType,
} from './entities.js';

const FILTERS = ['chapter', 'section', 'page_number'] as const;
/** Chunks retrieved per request: numbered entities are a minority of chunks, so look wider than k. */
const CANDIDATES = 50;

export interface SemanticRequest {
  query: string;
  k: number;
  types: ReadonlySet<TraverseType>;
  filters: { chapter?: string; section?: string; page_number?: number };
}

export interface SemanticResult extends EntityFields {
  content: string;
  score: number;
}

/**
 * The body of `POST /search/semantic`, checked field by field with the contract's messages. A null
 * optional field is an absent one: clients that serialise every field of a model send them.
 */
export function parseSemanticRequest(body: unknown): SemanticRequest {
  if (!isObject(body)) throw invalid('the body must be a JSON object with a "query"');
  assertKnownFields(body, ['query', 'k', 'traverse_types', 'filters']);
  const query = typeof body.query === 'string' ? body.query.trim() : '';
  if (query.length < 3) throw invalid('query must be at least 3 characters');
  if (query.length > 1000) throw invalid('query must be at most 1000 characters');
  const k = body.k ?? 5;
  if (typeof k !== 'number' || !Number.isInteger(k) || k < 1 || k > 20)
    throw invalid('k must be between 1 and 20');
  const types = traverseTypes(body.traverse_types, TRAVERSE_TYPES);
  const filters: SemanticRequest['filters'] = {};
  if (body.filters !== undefined && body.filters !== null) {
    if (!isObject(body.filters)) throw invalid('filters must be an object');
    for (const [name, value] of Object.entries(body.filters)) {
      if (!FILTERS.includes(name as (typeof FILTERS)[number]))
        throw invalid(`filter '${name}' is not supported`);
      if (value === null) continue;
      if (name === 'page_number') {
        if (typeof value !== 'number' || !Number.isInteger(value))
          throw invalid("filter 'page_number' must be an integer");
        filters.page_number = value;
      } else if (typeof value === 'string' || typeof value === 'number') {
        filters[name as 'chapter' | 'section'] = String(value);
      } else throw invalid(`filter '${name}' must be a string or a number`);
    }
  }
  return { query, k, types, filters };
}

/**
 * Hybrid retrieval over chunks, read back as the numbered entities (algorithms, equations,
 * sections, ...) those chunks hold: each entity scores as its best chunk. Sorted by score,
 * descending; `total_count` counts every match before the cut to k.
 */
export async function semanticSearch(
  runtime: RagRuntime,
  workspaceId: string,
  request: SemanticRequest,
  corpusVersion?: number,
): Promise<{
  results: SemanticResult[];
  total_count: number;
  corrections: Array<{ from: string; to: string }>;
  did_you_mean: string | null;
}> {
  // No intent narrowing: its interleaved list is not in score order, and an entity scores as
  // its best chunk.
  const retrieval = await runtime.retriever.retrieve({
    workspaceId,
    query: request.query,
    k: CANDIDATES,
    intent: false,
    corpusVersion,
  });
  const chunkIds = retrieval.hits.map((hit) => hit.chunkId);
  const mentions = await runtime.graph.mentionedIn({ workspaceId, chunkIds });
  const entities = await runtime.graph.getEntities({
    workspaceId,
    ids: [...new Set(mentions.map((mention) => mention.entityId))],
  });
  const byId = new Map(entities.map((entity) => [entity.id, entity]));
  // Every candidate of the asked-for types, as its best chunk; the page filter needs each one's
  // defining passage, so those are read before any filter.
  const candidates = new Map<string, { entity: GraphEntity; hit: (typeof retrieval.hits)[number] }>();
  for (const hit of retrieval.hits) {
    // Entities the chunk defines come before ones it only cites; within those, the mention count.
    const here = mentions
      .filter((mention) => mention.chunkId === hit.chunkId)
      .map((mention) => ({ mention, entity: byId.get(mention.entityId) }))
      .filter(
        (found): found is { mention: (typeof mentions)[number]; entity: GraphEntity } =>
          found.entity !== undefined,
      )
      .filter(({ entity }) => entity.definedBy === hit.sourcePath)
      .sort((left, right) => right.mention.count - left.mention.count);
    for (const { entity } of here) {
      if (candidates.has(entity.id) || !request.types.has(entity.type.toLowerCase() as TraverseType))
        continue;
      candidates.set(entity.id, { entity, hit });
    }
  }
  const passages = await definitions(
    runtime,
    workspaceId,
    [...candidates.values()].map(({ entity }) => entity),
  );
  const results: SemanticResult[] = [];
  for (const { entity, hit } of candidates.values()) {
    const passage = passages.get(entity.id);
    const fields = entityFields(entity, passage);
    if (!matchesFilters(fields, request.filters)) continue;
    // The hit that brought an entity in may only mention it: show the passage that defines it.
    results.push({ ...fields, content: passage?.text ?? hit.text, score: round(hit.score) });
  }
  const sorted = results.sort((left, right) => right.score - left.score || left.id.localeCompare(right.id));
  const top = sorted.slice(0, request.k);
  return {
    results: top,
    total_count: sorted.length,
    corrections: retrieval.corrections.map(({ from, to }) => ({ from, to })),
    did_you_mean: didYouMean(retrieval),
  };
}

function matchesFilters(fields: EntityFields, filters: SemanticRequest['filters']): boolean {
  if (filters.chapter !== undefined && fields.chapter !== filters.chapter) return false;
  if (
    filters.section !== undefined &&
    fields.section !== filters.section &&
    !(fields.section ?? '').startsWith(`${filters.section}.`)
  )
    return false;
  if (filters.page_number !== undefined && fields.page_number !== filters.page_number) return false;
  return true;
}

/**
 * The corrected words as the corpus writes them ("POMP" → "POMDP"), read off the retrieved text
 * so the suggestion has the corpus's own casing.
 */
function didYouMean(retrieval: Awaited<ReturnType<RagRuntime['retriever']['retrieve']>>): string | null {
  if (retrieval.corrections.length === 0) return null;
  const words = retrieval.corrections.map(({ to }) => {
    const lexeme = to.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    // The word itself ("POMDP") before a longer one that starts with it ("POMDPs").
    for (const pattern of [`\\b(${lexeme})\\b`, `\\b(${lexeme}[\\p{L}\\p{N}]*)`]) {
      for (const hit of retrieval.hits) {
        const match = new RegExp(pattern, 'iu').exec(hit.text);
        if (match) return match[1]!;
      }
    }
    return to;
  });
  return words.join(' ');
}

const round = (value: number) => Math.round(value * 10_000) / 10_000;
