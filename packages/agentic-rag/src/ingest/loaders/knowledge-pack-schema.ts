import { z } from 'zod';

/**
 * The parts of a knowledge pack and the forms each is accepted in. The canonical form is the
 * design's (`node_id`/`node_type`/`label`, `source_id`/`target_id`/`edge_type`/`properties`,
 * metadata keyed by entity id with `entity_type` and `properties`); the form packs were written
 * in before (`id`/`type`/`name`, `source`/`target`/`type`/`piece_id`, `metadata.entities` and
 * `metadata.global`) stays an accepted alias. Both normalise to the same parts, so everything
 * downstream sees one shape. docs/knowledge-packs.md lists both.
 */

export const KNOWLEDGE_TYPES = [
  'fact',
  'instruction',
  'preference',
  'procedure',
  'note',
  'episodic',
] as const;
export type KnowledgeType = (typeof KNOWLEDGE_TYPES)[number];
/** The info types every pack may use; a pack may add its own (`snake_case`). */
export const INFO_TYPES = ['user_profile', 'instructions', 'context', 'skills'] as const;

export const identifier = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.:@/-]{0,127}$/, 'letters, digits and _ . : @ / -');

const properties = z.record(z.string(), z.unknown());

export const pieceSchema = z
  .object({
    piece_id: identifier,
    content: z.string().trim().min(1, 'content is empty').max(20_000),
    // The design's table writes the types capitalised (`Fact`), its JSON lower case (`procedure`).
    knowledge_type: z.preprocess(
      (value) => (typeof value === 'string' ? value.toLowerCase() : value),
      z.enum(KNOWLEDGE_TYPES),
    ),
    info_type: z
      .string()
      .regex(/^[a-z][a-z0-9_]{0,63}$/, 'info_type must be snake_case (user_profile, instructions, ...)'),
    tags: z.array(z.string().min(1).max(64)).max(32).default([]),
    entity_id: identifier.optional(),
    embedding_text: z.string().trim().min(1).max(20_000).optional(),
  })
  .strict();
export type KnowledgePiece = z.output<typeof pieceSchema>;

/** A graph node, whichever form it came in. */
export interface PackNode {
  /** Its id in the pack (`technique:les`): what edges name. */
  id: string;
  /** The graph's entity type, PascalCase (`Technique`). */
  type: string;
  /** The graph's entity name. */
  name: string;
  /** How the formatter's relationship lines name it: `Technique:les`. */
  typedId: string;
  label: string | null;
  properties: Record<string, unknown>;
}

const documentNode = z
  .object({
    node_id: identifier,
    node_type: z
      .string()
      .regex(/^[A-Za-z][A-Za-z0-9_ -]{0,63}$/, 'node_type must be a word (user, technique)'),
    label: z.string().min(1).max(256).optional(),
    properties: properties.default({}),
  })
  .strict();

const legacyNode = z
  .object({
    id: identifier,
    type: z.string().regex(/^[A-Z][A-Za-z0-9]{0,63}$/, 'node type must be PascalCase (Person, Project)'),
    name: z.string().min(1).max(256).optional(),
    properties: properties.default({}),
  })
  .strict();

/** `user` → `User`, `data_set` → `DataSet`: the graph's entity types are PascalCase words. */
function pascalCase(type: string): string {
  return type
    .split(/[\s_-]+/)
    .filter(Boolean)
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join('');
}

/** The name part of `technique:les` (`les`); an id without a prefix is all name. */
function namePart(id: string): string {
  const colon = id.indexOf(':');
  return colon > 0 && colon < id.length - 1 ? id.slice(colon + 1) : id;
}

export function parseNode(raw: unknown): { node: PackNode } | { error: string } {
  if (typeof raw === 'object' && raw !== null && 'id' in raw && !('node_id' in raw)) {
    const result = legacyNode.safeParse(raw);
    if (!result.success) return { error: issueText(result.error) };
    const { id, type, name } = result.data;
    return {
      node: {
        id,
        type,
        name: name ?? id,
        typedId: `${type}:${name ?? id}`,
        // The old form's name is the entity's name already; it has no separate label.
        label: null,
        properties: result.data.properties,
      },
    };
  }
  const result = documentNode.safeParse(raw);
  if (!result.success) return { error: issueText(result.error) };
  const { node_id, node_type, label } = result.data;
  const type = pascalCase(node_type);
  // The id, not the label, names the entity: ids are what the pack's author keeps unique, and
  // the formatter's output names nodes by it (`Technique:les`). The label is kept as an alias.
  return {
    node: {
      id: node_id,
      type,
      name: namePart(node_id),
      typedId: `${type}:${namePart(node_id)}`,
      label: label ?? null,
      properties: result.data.properties,
    },
  };
}

/** A graph edge, whichever form it came in. */
export interface PackEdge {
  source: string;
  target: string;
  type: string;
  weight: number;
  /** The piece that states the edge (the pack's `properties.piece_id`). */
  pieceId: string | null;
  /** Everything else the edge carries (the pack's `properties`; `description` is shown). */
  properties: Record<string, unknown>;
}

const edgeType = z.string().regex(/^[A-Z][A-Z0-9_]{0,63}$/, 'edge type must be UPPER_SNAKE (WORKS_ON)');

const documentEdge = z
  .object({
    source_id: identifier,
    target_id: identifier,
    edge_type: edgeType,
    properties: z
      .object({
        piece_id: identifier.optional(),
        weight: z.number().positive().max(1000).optional(),
      })
      .catchall(z.unknown())
      .default({}),
  })
  .strict();

const legacyEdge = z
  .object({
    source: identifier,
    target: identifier,
    type: edgeType,
    weight: z.number().positive().max(1000).default(1),
    piece_id: identifier.optional(),
  })
  .strict();

export function parseEdge(raw: unknown): { edge: PackEdge } | { error: string } {
  if (typeof raw === 'object' && raw !== null && 'source' in raw && !('source_id' in raw)) {
    const result = legacyEdge.safeParse(raw);
    if (!result.success) return { error: issueText(result.error) };
    const { source, target, type, weight, piece_id } = result.data;
    return { edge: { source, target, type, weight, pieceId: piece_id ?? null, properties: {} } };
  }
  const result = documentEdge.safeParse(raw);
  if (!result.success) return { error: issueText(result.error) };
  const { piece_id, weight, ...rest } = result.data.properties;
  return {
    edge: {
      source: result.data.source_id,
      target: result.data.target_id,
      type: result.data.edge_type,
      weight: weight ?? 1,
      pieceId: piece_id ?? null,
      properties: rest,
    },
  };
}

/** One entity's profile (the design's `EntityMetadata`): its entry in the pack's `metadata`. */
export interface PackProfile {
  entityId: string;
  entityType: string | null;
  properties: Record<string, unknown>;
}

const documentProfile = z
  .object({
    entity_id: identifier.optional(),
    entity_type: z.string().regex(/^[a-z][a-z0-9_]{0,63}$/, 'entity_type must be snake_case (user, team)'),
    properties: properties.default({}),
  })
  .strict();

export interface PackMetadata {
  packId: string | null;
  profiles: PackProfile[];
  global: Record<string, unknown>;
  /** Entries that are neither form, with why: reported, never dropped in silence. */
  invalid: Array<{ where: string; message: string }>;
}

/** The entity type the canonical form uses for the metadata every entity shares. */
const GLOBAL = 'global';

/**
 * The `metadata` section. The design keys profiles by entity id (`{"user:alice": {"entity_type":
 * "user", "properties": {...}}}`) while its table says an entry requires `entity_id`: both are
 * accepted (an array of entries with `entity_id` too), and a key and an `entity_id` that differ
 * are an error. `pack_id`, `description`, `global` and `entities` keep their old meaning when
 * their values have the old shape.
 */
export function parseMetadata(raw: unknown): PackMetadata {
  const metadata: PackMetadata = { packId: null, profiles: [], global: {}, invalid: [] };
  if (raw === undefined || raw === null) return metadata;
  const entries: Array<[string, unknown, string]> = [];
  if (Array.isArray(raw)) {
    raw.forEach((entry, index) => {
      const id = (entry as { entity_id?: unknown } | null)?.entity_id;
      // Keyed by its own entity_id, so the key check below always agrees.
      entries.push([typeof id === 'string' ? id : '', entry, `metadata[${index}]`]);
    });
  } else if (typeof raw === 'object') {
    for (const [key, value] of Object.entries(raw)) entries.push([key, value, `metadata.${key}`]);
  } else {
    metadata.invalid.push({ where: 'metadata', message: 'metadata must be an object or an array' });
    return metadata;
  }
  const isRecord = (value: unknown): value is Record<string, unknown> =>
    typeof value === 'object' && value !== null && !Array.isArray(value);
  for (const [key, value, where] of entries) {
    if (key === 'pack_id' && typeof value === 'string' && identifier.safeParse(value).success) {
      metadata.packId = value;
      continue;
    }
    if (key === 'description' && typeof value === 'string') continue;
    if (key === GLOBAL && isRecord(value) && !('entity_type' in value)) {
      Object.assign(metadata.global, value);
      continue;
    }
    if (key === 'entities' && isRecord(value) && !('entity_type' in value)) {
      for (const [entityId, profile] of Object.entries(value)) {
        if (!identifier.safeParse(entityId).success || !isRecord(profile))
          metadata.invalid.push({
            where: `metadata.entities.${entityId}`,
            message: 'invalid entity metadata: a profile is an object under an entity id (user:alice)',
          });
        else metadata.profiles.push({ entityId, entityType: null, properties: profile });
      }
      continue;
    }
    const result = documentProfile.safeParse(value);
    if (!result.success) {
      metadata.invalid.push({ where, message: `invalid entity metadata: ${issueText(result.error)}` });
      continue;
    }
    const entityId = result.data.entity_id ?? key;
    if (!identifier.safeParse(entityId).success) {
      metadata.invalid.push({ where, message: 'invalid entity metadata: entity_id: required' });
    } else if (key !== entityId) {
      metadata.invalid.push({
        where,
        message: `invalid entity metadata: entity_id "${result.data.entity_id}" differs from its key "${key}"`,
      });
    } else if (result.data.entity_type === GLOBAL) {
      Object.assign(metadata.global, result.data.properties);
    } else if (metadata.profiles.some((profile) => profile.entityId === entityId)) {
      metadata.invalid.push({ where, message: `duplicate entity metadata for "${entityId}"` });
    } else {
      metadata.profiles.push({
        entityId,
        entityType: result.data.entity_type,
        properties: result.data.properties,
      });
    }
  }
  return metadata;
}

/** The first issue as `path: message`, the way every part's failure reads. */
export function issueText(error: z.ZodError): string {
  const issue = error.issues[0]!;
  return `${issue.path.join('.') || 'value'}: ${issue.message}`;
}
