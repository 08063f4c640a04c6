import { definingPassage, type GraphEntity } from '../graph/index.js';
import type { RagRuntime } from '../runtime/index.js';
import type { ChunkRecord } from '../store/index.js';

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

/** Graph types a document id may name: the traverse types and chapters. */
const ID_TYPES = [...TRAVERSE_TYPES, 'chapter'] as const;
/**
 * Short forms a client may write for a type: the REST contract itself writes `algo_4_1`
 * (docs/rest-contract.md). Only unambiguous ones: `ex` could be an example or an exercise, so it
 * is not here.
 */
const TYPE_ALIASES: Readonly<Record<string, (typeof ID_TYPES)[number]>> = {
  algo: 'algorithm',
  alg: 'algorithm',
  eq: 'formula',
  eqn: 'formula',
  equation: 'formula',
  tab: 'table',
  tbl: 'table',
  fig: 'figure',
  sec: 'section',
  ch: 'chapter',
  chap: 'chapter',
  app: 'appendix',
};
/**
 * A numbered entity's document id: the canonical `algorithm_3_2` (the REST contract's) or the earlier
 * `algorithm:3.2`, with any short type from TYPE_ALIASES and `.` or `_` between the parts of the
 * number. A letter leads an appendix number (`table_A_1`, `appendix_A`).
 */
const ENTITY_ID = new RegExp(
  `^(${[...ID_TYPES, ...Object.keys(TYPE_ALIASES)].join('|')})[_:]([A-Z]|\\d+)((?:[._]\\d+)*)$`,
  'i',
);
/** A chunk's stable id (`stableChunkId`): 32 hex digits. */
const CHUNK_ID = /^[0-9a-f]{32}$/;

export type DocumentRef = { kind: 'entity'; key: string } | { kind: 'chunk'; chunkId: string };

export const graphType = (type: string) => type.charAt(0).toUpperCase() + type.slice(1).toLowerCase();

/** `algorithm_3_2`: the contract's id of a numbered entity; the graph's key stays `Algorithm:3.2`. */
export const documentId = (entity: GraphEntity) =>
  `${entity.type.toLowerCase()}_${entity.id.slice(entity.type.length + 1).replace(/\./g, '_')}`;

/** What a document id names (a graph key or a chunk), or null when it is malformed. */
export function parseDocumentId(id: string): DocumentRef | null {
  if (CHUNK_ID.test(id)) return { kind: 'chunk', chunkId: id };
  const match = ENTITY_ID.exec(id);
  if (!match) return null;
  const word = match[1]!.toLowerCase();
  const type = TYPE_ALIASES[word] ?? word;
  const number = `${match[2]!.toUpperCase()}${match[3]!.replace(/_/g, '.')}`;
  return { kind: 'entity', key: `${graphType(type)}:${number}` };
}

export interface EntityFields {
  id: string;
  type: string;
  number: string | null;
  title: string | null;
  chapter: string | null;
  section: string | null;
  page_number: number | null;
}

/** The passage that defines an entity: its chunk, text and page (null when the source has none). */
export interface Definition {
  chunkId: string;
  text: string;
  pageNumber: number | null;
}

const text = (value: unknown) =>
  typeof value === 'string' || typeof value === 'number' ? String(value) : null;

/**
 * The contract's fields of an entity. Its page is the one its definition starts on when the
 * ingest recorded it (`page`, for paged sources such as PDF), else the page of the passage that
 * defines it.
 */
export function entityFields(entity: GraphEntity, definition?: Definition): EntityFields {
  const { properties } = entity;
  return {
    id: documentId(entity),
    type: entity.type.toLowerCase(),
    number: text(properties.number),
    // The contract gives every entity a title; an equation has none of its own, so its name stands in.
    title: text(properties.title) ?? entity.name,
    chapter: text(properties.chapter),
    // A section is its own section (the contract's `section` is where to cite it from).
    section: text(properties.section) ?? (entity.type === 'Section' ? text(properties.number) : null),
    page_number: pageNumber(text(properties.page)) ?? definition?.pageNumber ?? null,
  };
}

/** The passage that defines each entity (graph's definingPassage rule), in one query for all of them. */
export async function definitions(
  runtime: RagRuntime,
  workspaceId: string,
  entities: readonly GraphEntity[],
): Promise<Map<string, Definition>> {
  if (entities.length === 0) return new Map();
  const mentions = await runtime.graph.mentions({
    workspaceId,
    entityIds: entities.map((entity) => entity.id),
  });
  const found = await runtime.chunks.find(workspaceId, {
    chunkIds: mentions.map((mention) => mention.chunkId),
  });
  const chunks = new Map(found.map((chunk) => [chunk.chunkId, chunk]));
  const chosen = new Map<string, Definition>();
  for (const entity of entities) {
    const candidates = mentions
      .filter((mention) => mention.entityId === entity.id)
      .filter((mention) => entity.definedBy === null || mention.sourcePath === entity.definedBy)
      .map((mention) => ({ count: mention.count, chunk: chunks.get(mention.chunkId) }))
      .filter((candidate): candidate is { count: number; chunk: ChunkRecord } => Boolean(candidate.chunk));
    const best = definingPassage(entity, candidates);
    if (best)
      chosen.set(entity.id, {
        chunkId: best.chunkId,
        text: best.text,
        pageNumber: pageNumber(pageOf(best)),
      });
  }
  return chosen;
}

/**
 * A page loader (PDF) writes `page_number` into each chunk's metadata; a document that is one page
 * of a larger source may carry it in its own metadata (Markdown front matter). The chunk's wins,
 * as in the retrieval filters.
 */
function pageOf(chunk: ChunkRecord): string | null {
  const page = chunk.metadata.page_number ?? chunk.documentMetadata.page_number;
  return typeof page === 'string' || typeof page === 'number' ? String(page) : null;
}

/** Metadata is JSON: a page is a positive whole number, whatever a loader wrote it as. */
function pageNumber(value: string | null): number | null {
  return value !== null && /^[1-9]\d{0,8}$/.test(value) ? Number(value) : null;
}
