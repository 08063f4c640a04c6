import type { GraphEntity } from '../graph/index.js';
import type { RagRuntime } from '../runtime/index.js';
import { assertKnownFields, invalid, isObject, traverseTypes } from './problems.js';
import {
  definitions,
  documentId,
  parseDocumentId,
  RELATION_TYPES,
  type DocumentRef,
  type RelationType,
} from './entities.js';

const MAX_IDS = 50;
/** Edges that REFERENCED_BY reads backwards: whatever references or cites the entity. */
const CITED = ['REFERENCES', 'CITES'];
/** The contract's RELATED_TO is the graph extractors' RELATED; the other names are the graph's. */
const graphTypes = (type: RelationType) => (type === 'RELATED_TO' ? ['RELATED_TO', 'RELATED'] : [type]);
const contractType = (type: string) => (type === 'RELATED' ? 'RELATED_TO' : type) as RelationType;

export interface ExpandRequest {
  ids: Array<{ given: string; ref: DocumentRef }>;
  types: ReadonlySet<RelationType>;
}

export interface Relationship {
  type: RelationType;
  target_id: string;
  target_type: string;
}

export interface ExpandedDocument {
  id: string;
  type: string;
  content: string;
  relationships: Relationship[];
}

/**
 * Ids are checked for form only: `algorithm_3_2`, `algorithm:3.2`, `algo_4_1` or a chunk id are
 * well-formed whether or not the knowledge base holds them (those it lacks become warnings).
 */
export function parseExpandRequest(body: unknown): ExpandRequest {
  if (!isObject(body)) throw invalid('the body must be a JSON object with "document_ids"');
  assertKnownFields(body, ['document_ids', 'traverse_types']);
  const ids = body.document_ids;
  if (!Array.isArray(ids) || ids.length === 0 || ids.length > MAX_IDS)
    throw invalid(`document_ids must be a list of 1 to ${MAX_IDS} ids`);
  const parsed: ExpandRequest['ids'] = [];
  for (const id of new Set(ids)) {
    const ref = typeof id === 'string' ? parseDocumentId(id) : null;
    if (!ref)
      throw invalid(
        `document_ids contains invalid value: '${typeof id === 'string' ? id : JSON.stringify(id)}'. Expected <type>_<number> (algorithm_3_2, formula_16_4, table_A_1) or a chunk id`,
      );
    parsed.push({ given: id as string, ref });
  }
  return { ids: parsed, types: traverseTypes(body.traverse_types, RELATION_TYPES) };
}

/**
 * The asked-for entities with their relationships of the asked-for types, one hop out (and
 * REFERENCED_BY: what references or cites them), then the asked-for chunks with the entities they
 * mention (REFERENCES). Ids the knowledge base does not hold are reported in `warnings`; the rest
 * still expand.
 */
export async function expandGraph(
  runtime: RagRuntime,
  workspaceId: string,
  request: ExpandRequest,
): Promise<{ expanded_documents: ExpandedDocument[]; relationship_count: number; warnings: string[] }> {
  const keys = request.ids.flatMap(({ ref }) => (ref.kind === 'entity' ? [ref.key] : []));
  const chunkIds = request.ids.flatMap(({ ref }) => (ref.kind === 'chunk' ? [ref.chunkId] : []));
  const [seeds, chunks] = await Promise.all([
    runtime.graph.getEntities({ workspaceId, ids: [...new Set(keys)] }),
    expandChunks(runtime, workspaceId, chunkIds, request.types),
  ]);
  const found = new Set([...seeds.map((entity) => entity.id), ...chunks.map((chunk) => chunk.id)]);
  const warnings = request.ids
    .filter(({ ref }) => !found.has(ref.kind === 'entity' ? ref.key : ref.chunkId))
    .map(({ given }) => `document '${given}' is not in the knowledge base`);
  const entities = seeds.length === 0 ? [] : await expandEntities(runtime, workspaceId, seeds, request.types);
  const documents = [...entities, ...chunks];
  return {
    expanded_documents: documents,
    relationship_count: documents.reduce((total, document) => total + document.relationships.length, 0),
    warnings,
  };
}

async function expandEntities(
  runtime: RagRuntime,
  workspaceId: string,
  seeds: GraphEntity[],
  types: ReadonlySet<RelationType>,
): Promise<ExpandedDocument[]> {
  const outgoing = [...types].filter((type) => type !== 'REFERENCED_BY').flatMap(graphTypes);
  const neighbourhood = await runtime.graph.neighbourhood({
    workspaceId,
    seeds: seeds.map((entity) => entity.id),
    hops: 1,
    direction: 'both',
    relationTypes: types.has('REFERENCED_BY') ? [...new Set([...outgoing, ...CITED])] : outgoing,
    limit: 500,
  });
  const entities = new Map<string, GraphEntity>(
    [...seeds, ...neighbourhood.entities].map((entity) => [entity.id, entity]),
  );
  const passages = await definitions(runtime, workspaceId, seeds);
  return seeds.map((seed) => {
    const relationships: Relationship[] = [];
    for (const edge of neighbourhood.edges) {
      const reverse = edge.to === seed.id && CITED.includes(edge.type) && types.has('REFERENCED_BY');
      const forward = edge.from === seed.id && outgoing.includes(edge.type);
      if (!forward && !reverse) continue;
      const target = entities.get(forward ? edge.to : edge.from);
      // Only targets a client can name in turn: a concept has no number, hence no document id.
      if (!target || !parseDocumentId(documentId(target))) continue;
      relationships.push({
        type: forward ? contractType(edge.type) : 'REFERENCED_BY',
        target_id: documentId(target),
        target_type: target.type.toLowerCase(),
      });
    }
    relationships.sort(
      (left, right) => left.type.localeCompare(right.type) || left.target_id.localeCompare(right.target_id),
    );
    return {
      id: documentId(seed),
      type: seed.type.toLowerCase(),
      content: passages.get(seed.id)?.text ?? '',
      relationships,
    };
  });
}

/** A chunk (a plain passage) relates to the numbered entities it mentions: REFERENCES. */
async function expandChunks(
  runtime: RagRuntime,
  workspaceId: string,
  chunkIds: string[],
  types: ReadonlySet<RelationType>,
): Promise<ExpandedDocument[]> {
  if (chunkIds.length === 0) return [];
  const [found, mentions] = await Promise.all([
    runtime.chunks.find(workspaceId, { chunkIds }),
    types.has('REFERENCES') ? runtime.graph.mentionedIn({ workspaceId, chunkIds }) : Promise.resolve([]),
  ]);
  const targets = await runtime.graph.getEntities({
    workspaceId,
    ids: [...new Set(mentions.map((mention) => mention.entityId))],
  });
  const byId = new Map(targets.map((entity) => [entity.id, entity]));
  const texts = new Map(found.map((chunk) => [chunk.chunkId, chunk.text]));
  return chunkIds
    .filter((chunkId) => texts.has(chunkId))
    .map((chunkId) => {
      const relationships = [
        ...new Set(
          mentions.filter((mention) => mention.chunkId === chunkId).map((mention) => mention.entityId),
        ),
      ]
        .flatMap((entityId) => {
          const target = byId.get(entityId);
          return target && parseDocumentId(documentId(target))
            ? [
                {
                  type: 'REFERENCES' as const,
                  target_id: documentId(target),
                  target_type: target.type.toLowerCase(),
                },
              ]
            : [];
        })
        .sort((left, right) => left.target_id.localeCompare(right.target_id));
      return { id: chunkId, type: 'chunk', content: texts.get(chunkId)!, relationships };
    });
}
