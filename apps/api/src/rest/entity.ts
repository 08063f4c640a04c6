import { ErrorCode, RagError, type RagRuntime } from '@agentic-rag/core';
import { invalid } from './problems.js';
import { definitions, documentId, entityFields, graphType, type EntityFields } from './textbook.js';

const ENTITY_TYPES = ['formula', 'algorithm', 'table', 'figure'] as const;
const NUMBER = /^([A-Z]|\d+)(\.\d+)*$/i;
/** Edges that say one entity builds on another. */
const CITING = new Set(['REFERENCES', 'CITES', 'USES_IN']);

export interface EntityReferenceFields {
  id: string;
  type: string;
  number: string | null;
  title: string | null;
  relation: string;
}

/**
 * `GET /entity/{type}/{number}`: a numbered entity with its defining passage, what it references
 * (its outgoing REFERENCES / CITES / USES_IN edges) and what cites it (the same edges, incoming).
 */
export async function getEntity(
  runtime: RagRuntime,
  workspaceId: string,
  rawType: string,
  rawNumber: string,
): Promise<
  EntityFields & { content: string; references: EntityReferenceFields[]; cited_by: EntityReferenceFields[] }
> {
  const type = rawType.toLowerCase();
  if (!ENTITY_TYPES.includes(type as (typeof ENTITY_TYPES)[number]))
    throw invalid(`entity_type must be one of ${ENTITY_TYPES.join(', ')}`);
  let number: string;
  try {
    number = decodeURIComponent(rawNumber);
  } catch {
    throw invalid('number must look like 3.2, 16.4 or A.1');
  }
  if (!NUMBER.test(number)) throw invalid('number must look like 3.2, 16.4 or A.1');
  const [entity] = await runtime.graph.getEntities(workspaceId, [
    `${graphType(type)}:${number.toUpperCase()}`,
  ]);
  if (!entity)
    throw new RagError(ErrorCode.NOT_FOUND, `${graphType(type)} ${number} not found in knowledge base`);
  // Independent reads: side by side, each on its own pooled connection.
  const [neighbourhood, texts] = await Promise.all([
    runtime.graph.neighbourhood({
      workspaceId,
      seeds: [entity.id],
      hops: 1,
      direction: 'both',
      relationTypes: [...CITING],
      limit: 500,
    }),
    definitions(runtime, workspaceId, [entity]),
  ]);
  const others = new Map(neighbourhood.entities.map((other) => [other.id, other]));
  const reference = (id: string, relation: string): EntityReferenceFields | null => {
    const other = others.get(id);
    if (!other) return null;
    const fields = entityFields(other);
    return { id: documentId(other), type: fields.type, number: fields.number, title: fields.title, relation };
  };
  const present = (value: EntityReferenceFields | null): value is EntityReferenceFields => value !== null;
  const byId = (left: EntityReferenceFields, right: EntityReferenceFields) => left.id.localeCompare(right.id);
  return {
    ...entityFields(entity),
    content: texts.get(entity.id) ?? '',
    references: neighbourhood.edges
      .filter((edge) => edge.from === entity.id)
      .map((edge) => reference(edge.to, edge.type))
      .filter(present)
      .sort(byId),
    cited_by: neighbourhood.edges
      .filter((edge) => edge.to === entity.id)
      .map((edge) => reference(edge.from, edge.type))
      .filter(present)
      .sort(byId),
  };
}
