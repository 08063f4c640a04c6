import type { GraphEntity, RagRuntime } from '@agentic-rag/core';

/** The entity kinds of the REST contract, as its clients spell them. */
export const TRAVERSE_TYPES = [
  'formula',
  'algorithm',
  'table',
  'figure',
  'section',
  'example',
  'exercise',
  'appendix',
] as const;
export type TraverseType = (typeof TRAVERSE_TYPES)[number];

/** Graph relation types the contract exposes; REFERENCED_BY is REFERENCES and CITES read backwards. */
export const RELATION_TYPES = [
  'USES_IN',
  'CITES',
  'REFERENCES',
  'RELATED_TO',
  'FOLLOWS',
  'REFERENCED_BY',
  'PART_OF',
] as const;
export type RelationType = (typeof RELATION_TYPES)[number];

/** `algorithm:3.2`: the contract's document id of a numbered entity (the graph's key, lower-cased type). */
export const DOCUMENT_ID =
  /^(formula|algorithm|table|figure|section|example|exercise|appendix|chapter):([A-Z]|\d+)(\.\d+)*$/i;

export const graphType = (type: string) => type.charAt(0).toUpperCase() + type.slice(1).toLowerCase();
export const documentId = (entity: GraphEntity) =>
  `${entity.type.toLowerCase()}:${entity.id.slice(entity.type.length + 1)}`;
export const entityIdOf = (id: string) => {
  const at = id.indexOf(':');
  return `${graphType(id.slice(0, at))}:${id.slice(at + 1).toUpperCase()}`;
};

export interface EntityFields {
  id: string;
  type: string;
  number: string | null;
  title: string | null;
  chapter: string | null;
  section: string | null;
  page_number: number | null;
}

const text = (value: unknown) =>
  typeof value === 'string' || typeof value === 'number' ? String(value) : null;

export function entityFields(entity: GraphEntity): EntityFields {
  const { properties } = entity;
  return {
    id: documentId(entity),
    type: entity.type.toLowerCase(),
    number: text(properties.number),
    title: text(properties.title),
    chapter: text(properties.chapter),
    section: text(properties.section),
    page_number: typeof properties.page_number === 'number' ? properties.page_number : null,
  };
}

/**
 * The passage that defines each entity, among the chunks of its defining source that mention it:
 * the one holding its numbered block (`**Algorithm 3.2.**`, or a display equation ending in
 * `(7.5)`), else the one that mentions it most. One query for all of them.
 */
export async function definitions(
  runtime: RagRuntime,
  workspaceId: string,
  entities: readonly GraphEntity[],
): Promise<Map<string, string>> {
  if (entities.length === 0) return new Map();
  const mentions = await runtime.graph.mentions(
    workspaceId,
    entities.map((entity) => entity.id),
  );
  const rows = await runtime.sql.query<{ chunk_id: string; text: string }>(
    'SELECT chunk_id, text FROM rag_chunks WHERE workspace_id = $1 AND chunk_id = ANY($2::text[])',
    [workspaceId, [...new Set(mentions.map((mention) => mention.chunkId))]],
  );
  const texts = new Map(rows.rows.map((row) => [row.chunk_id, row.text]));
  const chosen = new Map<string, string>();
  for (const entity of entities) {
    const candidates = mentions
      .filter((mention) => mention.entityId === entity.id)
      .filter((mention) => entity.definedBy === null || mention.sourcePath === entity.definedBy)
      .map((mention) => ({ count: mention.count, text: texts.get(mention.chunkId) ?? '' }))
      .sort((left, right) => right.count - left.count);
    const number = typeof entity.properties.number === 'string' ? entity.properties.number : null;
    const block = candidates.find(
      ({ text }) =>
        text.includes(`**${entity.name}.**`) ||
        (entity.type === 'Formula' &&
          number !== null &&
          new RegExp(`\\$\\$\\s*\\(${number.replace(/\./g, '\\.')}\\)`).test(text)),
    );
    const best = block ?? candidates[0];
    if (best) chosen.set(entity.id, best.text);
  }
  return chosen;
}
