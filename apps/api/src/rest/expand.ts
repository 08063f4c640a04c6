import type { GraphEntity, RagRuntime } from '@agentic-rag/core';
import { assertKnownFields, invalid, isObject, traverseTypes } from './problems.js';
import {
  definitions,
  DOCUMENT_ID,
  documentId,
  entityIdOf,
  RELATION_TYPES,
  type RelationType,
} from './textbook.js';

const MAX_IDS = 50;
/** Edges that REFERENCED_BY reads backwards: whatever references or cites the entity. */
const CITED = ['REFERENCES', 'CITES'];

export interface ExpandRequest {
  ids: string[];
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

export function parseExpandRequest(body: unknown): ExpandRequest {
  if (!isObject(body)) throw invalid('the body must be a JSON object with "document_ids"');
  assertKnownFields(body, ['document_ids', 'traverse_types']);
  const ids = body.document_ids;
  if (!Array.isArray(ids) || ids.length === 0 || ids.length > MAX_IDS)
    throw invalid(`document_ids must be a list of 1 to ${MAX_IDS} ids`);
  const malformed = ids.find((id) => typeof id !== 'string' || !DOCUMENT_ID.test(id));
  if (malformed !== undefined)
    throw invalid(
      `document id '${String(malformed)}' is malformed (expected type:number, such as algorithm:3.2)`,
    );
  return { ids: [...new Set(ids as string[])], types: traverseTypes(body.traverse_types, RELATION_TYPES) };
}

/**
 * The asked-for entities with their relationships of the asked-for types, one hop out (and
 * REFERENCED_BY: what references or cites them). Ids the graph does not know are reported in `warnings`;
 * the rest still expand.
 */
export async function expandGraph(
  runtime: RagRuntime,
  workspaceId: string,
  request: ExpandRequest,
): Promise<{ expanded_documents: ExpandedDocument[]; relationship_count: number; warnings: string[] }> {
  const keys = request.ids.map(entityIdOf);
  const seeds = await runtime.graph.getEntities(workspaceId, keys);
  const found = new Set(seeds.map((entity) => entity.id));
  const warnings = request.ids
    .filter((_, index) => !found.has(keys[index]!))
    .map((id) => `document '${id}' is not in the knowledge base`);
  if (seeds.length === 0) return { expanded_documents: [], relationship_count: 0, warnings };

  const outgoing: string[] = [...request.types].filter((type) => type !== 'REFERENCED_BY');
  const neighbourhood = await runtime.graph.neighbourhood({
    workspaceId,
    seeds: seeds.map((entity) => entity.id),
    hops: 1,
    direction: 'both',
    relationTypes: request.types.has('REFERENCED_BY') ? [...new Set([...outgoing, ...CITED])] : outgoing,
    limit: 500,
  });
  const entities = new Map<string, GraphEntity>(
    [...seeds, ...neighbourhood.entities].map((entity) => [entity.id, entity]),
  );
  const texts = await definitions(runtime, workspaceId, seeds);
  let count = 0;
  const documents = seeds.map((seed) => {
    const relationships: Relationship[] = [];
    for (const edge of neighbourhood.edges) {
      const reverse = edge.to === seed.id && CITED.includes(edge.type) && request.types.has('REFERENCED_BY');
      const forward = edge.from === seed.id && outgoing.includes(edge.type);
      if (!forward && !reverse) continue;
      const target = entities.get(forward ? edge.to : edge.from);
      if (!target) continue;
      relationships.push({
        type: forward ? (edge.type as RelationType) : 'REFERENCED_BY',
        target_id: documentId(target),
        target_type: target.type.toLowerCase(),
      });
    }
    relationships.sort(
      (left, right) => left.type.localeCompare(right.type) || left.target_id.localeCompare(right.target_id),
    );
    count += relationships.length;
    return {
      id: documentId(seed),
      type: seed.type.toLowerCase(),
      content: texts.get(seed.id) ?? '',
      relationships,
    };
  });
  return { expanded_documents: documents, relationship_count: count, warnings };
}
