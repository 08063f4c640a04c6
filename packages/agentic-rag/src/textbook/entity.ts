import { ErrorCode, RagError } from '../errors/index.js';
import type { RagRuntime } from '../runtime/index.js';
import { invalid } from './problems.js';
import { definitions, documentId, entityFields, graphType, type EntityFields } from './entities.js';

const ENTITY_TYPES = ['formula', 'algorithm', 'table', 'figure'] as const;
/**
 * The REST contract's "digits + dot + digits (e.g. 3.2, 16.4, A.1)" (docs/rest-contract.md): a
 * chapter (or appendix letter) and a number.
 */
const NUMBER = /^([A-Z]|\d+)\.\d+$/i;
const NUMBER_FORMAT = 'number format invalid. Expected format: X.Y or X.YZ';
/** Edges that say one entity builds on another. */
const CITING = new Set(['REFERENCES', 'CITES', 'USES_IN']);

/**
 * `GET /entity/{type}/{number}`: a numbered entity with its defining passage, the ids of what it
 * references (its outgoing REFERENCES / CITES / USES_IN edges) and of what cites it (the same
 * edges, incoming).
 */
export async function getEntity(
  runtime: RagRuntime,
  workspaceId: string,
  rawType: string,
  rawNumber: string,
): Promise<EntityFields & { content: string; references: string[]; cited_by: string[] }> {
  const type = rawType.toLowerCase();
  if (!ENTITY_TYPES.includes(type as (typeof ENTITY_TYPES)[number]))
    throw invalid(`entity_type must be one of: ${ENTITY_TYPES.join(', ')}`);
  let number: string;
  try {
    number = decodeURIComponent(rawNumber);
  } catch {
    throw invalid(NUMBER_FORMAT);
  }
  if (!NUMBER.test(number)) throw invalid(NUMBER_FORMAT);
  const [entity] = await runtime.graph.getEntities({
    workspaceId,
    ids: [`${graphType(type)}:${number.toUpperCase()}`],
  });
  if (!entity)
    throw new RagError(ErrorCode.NOT_FOUND, `${graphType(type)} ${number} not found in knowledge base`);
  // Independent reads: side by side, each on its own pooled connection.
  const [neighbourhood, passages] = await Promise.all([
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
  // One id per entity, however many edges join the two; sorted so the answer is stable.
  const ids = (keys: string[]) =>
    [...new Set(keys.filter((key) => others.has(key)).map((key) => documentId(others.get(key)!)))].sort();
  const definition = passages.get(entity.id);
  return {
    ...entityFields(entity, definition),
    content: definition?.text ?? '',
    references: ids(neighbourhood.edges.filter((edge) => edge.from === entity.id).map((edge) => edge.to)),
    cited_by: ids(neighbourhood.edges.filter((edge) => edge.to === entity.id).map((edge) => edge.from)),
  };
}
