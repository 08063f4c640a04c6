import { z } from 'zod';
import { ErrorCode } from '../../errors/index.js';
import type { DocumentFacts, EntityFact, RelationFact, RelationType } from '../../graph/index.js';
import type { LoadedDocument, LoadFailure } from '../document.js';
import type { Loader, LoadResult } from './loader.js';

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

const identifier = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.:@/-]{0,127}$/, 'letters, digits and _ . : @ / -');

const piece = z
  .object({
    piece_id: identifier,
    content: z.string().trim().min(1, 'content is empty').max(20_000),
    knowledge_type: z.enum(KNOWLEDGE_TYPES),
    info_type: z
      .string()
      .regex(/^[a-z][a-z0-9_]{0,63}$/, 'info_type must be snake_case (user_profile, instructions, ...)'),
    tags: z.array(z.string().min(1).max(64)).max(32).default([]),
    entity_id: identifier.optional(),
    embedding_text: z.string().trim().min(1).max(20_000).optional(),
  })
  .strict();

const node = z
  .object({
    id: identifier,
    type: z.string().regex(/^[A-Z][A-Za-z0-9]{0,63}$/, 'node type must be PascalCase (Person, Project)'),
    name: z.string().min(1).max(256).optional(),
    properties: z.record(z.string(), z.unknown()).default({}),
  })
  .strict();

const edge = z
  .object({
    source: identifier,
    target: identifier,
    type: z.string().regex(/^[A-Z][A-Z0-9_]{0,63}$/, 'edge type must be UPPER_SNAKE (WORKS_ON)'),
    weight: z.number().positive().max(1000).default(1),
    piece_id: identifier.optional(),
  })
  .strict();

const pack = z
  .object({
    metadata: z
      .object({
        pack_id: identifier.optional(),
        description: z.string().optional(),
        /** Facts about everyone the pack covers (the "global metadata"). */
        global: z.record(z.string(), z.unknown()).default({}),
        /** A profile per entity: `{"user:alice": {"name": "Alice", "role": "SRE"}}`. */
        entities: z.record(identifier, z.record(z.string(), z.unknown())).default({}),
      })
      .passthrough()
      .default({ global: {}, entities: {} }),
    pieces: z.array(z.unknown()),
    graph: z
      .object({ nodes: z.array(z.unknown()).default([]), edges: z.array(z.unknown()).default([]) })
      .default({
        nodes: [],
        edges: [],
      }),
  })
  .strict();

export type KnowledgePiece = z.output<typeof piece>;
export type KnowledgePack = z.input<typeof pack>;

/** Whether parsed JSON is shaped like a knowledge pack (a `pieces` array) rather than records. */
export function isKnowledgePack(value: unknown): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Array.isArray((value as { pieces?: unknown }).pieces)
  );
}

/**
 * Secrets a piece must not carry into a knowledge base that agents read back verbatim: the reason,
 * or null. Patterns, not a vault scan: provider key formats, private key blocks, bearer tokens and
 * `password: ...` style assignments.
 */
export function secretIn(text: string): string | null {
  const checks: Array<[RegExp, string]> = [
    [/-----BEGIN ([A-Z]+ )?PRIVATE KEY-----/, 'a private key'],
    [/\bBearer\s+[A-Za-z0-9._~+/=-]{12,}/i, 'a bearer token'],
    [
      /\b(sk-[A-Za-z0-9_-]{16,}|AKIA[0-9A-Z]{16}|(gh[pousr]_|github_pat_)[A-Za-z0-9_]{20,}|xox[abpors]-[A-Za-z0-9-]{10,})/,
      'an API key',
    ],
    [/\b(api[_-]?key|secret|token)\s*[:=]\s*["']?[A-Za-z0-9._~+/=-]{12,}/i, 'an API key'],
    [/\b(password|passwd|pwd)\s*[:=]\s*["']?\S{4,}/i, 'a password'],
    // "my password is hunter2", but not "a password is needed": the value has a digit or symbol.
    [/\b(password|passwd|pwd)\s+is\s+["']?(?=\S*[0-9!@#$%^&*_+=~-])\S{4,}/i, 'a password'],
  ];
  for (const [pattern, what] of checks) if (pattern.test(text)) return `contains ${what}`;
  return null;
}

/**
 * A knowledge pack: `{metadata, pieces, graph}`. Each valid piece becomes a document of its own
 * (`<file>#<piece_id>`, its types, tags and entity in the metadata, `embedding_text` embedded in
 * place of the content), each entity profile and the global metadata a document too, and the
 * graph a readable document whose nodes and edges go to the knowledge graph (an edge with a
 * `piece_id` is asserted by that piece). An invalid item is reported and skipped, the rest loads;
 * a piece holding a secret is refused with the reason.
 */
export function loadKnowledgePack(sourcePath: string, value: unknown): LoadResult {
  const failures: LoadFailure[] = [];
  const fail = (where: string, message: string) =>
    failures.push({ sourcePath: `${sourcePath}#${where}`, code: ErrorCode.INVALID_INPUT, message });
  const parsed = pack.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return {
      documents: [],
      failures: [
        {
          sourcePath,
          code: ErrorCode.PARSE_FAILED,
          message: `not a knowledge pack: ${issue.path.join('.') || 'pack'}: ${issue.message}`,
        },
      ],
    };
  }
  const { metadata } = parsed.data;
  const packId = metadata.pack_id ?? sourcePath;
  const documents: LoadedDocument[] = [];
  const document = (
    id: string,
    text: string,
    fields: Record<string, unknown>,
    facts?: DocumentFacts,
  ): LoadedDocument => ({
    sourcePath: `${sourcePath}#${id}`,
    sourceFile: sourcePath,
    kind: 'knowledge',
    title: null,
    url: null,
    text,
    blocks: [{ type: 'paragraph', start: 0, end: text.length }],
    metadata: { pack_id: packId, ...fields },
    ...(facts ? { facts } : {}),
  });

  const pieces = new Map<string, KnowledgePiece>();
  parsed.data.pieces.forEach((raw, index) => {
    const result = piece.safeParse(raw);
    const id =
      typeof (raw as { piece_id?: unknown })?.piece_id === 'string'
        ? (raw as { piece_id: string }).piece_id
        : `pieces[${index}]`;
    if (!result.success) {
      const issue = result.error.issues[0]!;
      fail(id, `invalid piece: ${issue.path.join('.') || 'piece'}: ${issue.message}`);
      return;
    }
    if (pieces.has(result.data.piece_id)) {
      fail(id, `duplicate piece_id "${result.data.piece_id}"`);
      return;
    }
    const secret = secretIn(`${result.data.content}\n${result.data.embedding_text ?? ''}`);
    if (secret) {
      fail(id, `piece rejected: it ${secret}; keep secrets in a secret store, not in the knowledge base`);
      return;
    }
    pieces.set(result.data.piece_id, result.data);
  });

  const nodes = new Map<string, z.output<typeof node>>();
  parsed.data.graph.nodes.forEach((raw, index) => {
    const result = node.safeParse(raw);
    const secret = result.success ? secretIn(describe(result.data.properties)) : null;
    if (secret)
      fail(
        `graph.nodes[${index}]`,
        `node rejected: its properties ${secret.replace(/^contains/, 'contain')}`,
      );
    else if (result.success && nodes.has(result.data.id))
      fail(`graph.nodes[${index}]`, `duplicate node id "${result.data.id}"`);
    else if (!result.success)
      fail(
        `graph.nodes[${index}]`,
        `invalid node: ${result.error.issues[0]!.path.join('.')}: ${result.error.issues[0]!.message}`,
      );
    else nodes.set(result.data.id, result.data);
  });
  const edges: Array<z.output<typeof edge>> = [];
  parsed.data.graph.edges.forEach((raw, index) => {
    const result = edge.safeParse(raw);
    if (!result.success) {
      fail(
        `graph.edges[${index}]`,
        `invalid edge: ${result.error.issues[0]!.path.join('.')}: ${result.error.issues[0]!.message}`,
      );
    } else if (!nodes.has(result.data.source) || !nodes.has(result.data.target)) {
      fail(
        `graph.edges[${index}]`,
        `edge ${result.data.source} → ${result.data.target} names a node the pack does not have`,
      );
    } else if (result.data.piece_id !== undefined && !pieces.has(result.data.piece_id)) {
      fail(`graph.edges[${index}]`, `edge names piece "${result.data.piece_id}", which is not loaded`);
    } else edges.push(result.data);
  });

  const ref = (id: string) => {
    const found = nodes.get(id)!;
    return { type: found.type, name: found.name ?? found.id };
  };
  for (const item of pieces.values()) {
    const own = edges.filter((candidate) => candidate.piece_id === item.piece_id);
    documents.push({
      ...document(item.piece_id, item.content, {
        piece_id: item.piece_id,
        knowledge_type: item.knowledge_type,
        info_type: item.info_type,
        tags: item.tags,
        ...(item.entity_id ? { entity_id: item.entity_id } : {}),
      }),
      ...(item.embedding_text ? { embeddingText: item.embedding_text } : {}),
      // The piece states its edges: the whole piece is where both ends are mentioned.
      ...(own.length > 0 ? { facts: graphFacts(own, ref, { start: 0, end: item.content.length }) } : {}),
    });
  }
  for (const [entityId, profile] of Object.entries(metadata.entities)) {
    const text = describe(profile);
    const secret = secretIn(text);
    if (secret) {
      fail(`profile/${entityId}`, `profile rejected: it ${secret}`);
      continue;
    }
    // The graph node that is this entity (its id is the entity id, or it says so): the profile
    // states it, so a graph walk "from the entity" knows where to start.
    const own = [...nodes.values()].filter(
      (item) => item.id === entityId || item.properties.entity_id === entityId,
    );
    const facts =
      own.length > 0
        ? {
            entities: own.map((item) => ({
              ...ref(item.id),
              properties: item.properties,
              mentions: [{ start: 0, end: text.length }],
            })),
            relations: [],
          }
        : undefined;
    documents.push(
      document(
        `profile/${entityId}`,
        text,
        { entity_id: entityId, info_type: 'user_profile', profile },
        facts,
      ),
    );
  }
  const globalSecret = secretIn(describe(metadata.global));
  if (globalSecret) fail('global', `global metadata rejected: it ${globalSecret}`);
  else if (Object.keys(metadata.global).length > 0) {
    documents.push(
      document('global', describe(metadata.global), {
        info_type: 'global_metadata',
        global: metadata.global,
      }),
    );
  }
  const shared = edges.filter((candidate) => candidate.piece_id === undefined);
  if (nodes.size > 0) {
    // Every node is written out, so each has a passage that mentions it.
    const lines: string[] = [];
    const spans = new Map<string, { start: number; end: number }>();
    let offset = 0;
    for (const item of nodes.values()) {
      const line = `${item.name ?? item.id} (${item.type})`;
      spans.set(item.id, { start: offset, end: offset + line.length });
      lines.push(line);
      offset += line.length + 1;
    }
    for (const item of shared) lines.push(`${ref(item.source).name} ${item.type} ${ref(item.target).name}`);
    const text = lines.join('\n');
    const entities: EntityFact[] = [...nodes.values()].map((item) => ({
      ...ref(item.id),
      properties: item.properties,
      mentions: [spans.get(item.id)!],
    }));
    const relations: RelationFact[] = shared.map((item) => ({
      from: ref(item.source),
      to: ref(item.target),
      type: item.type as RelationType,
      weight: item.weight,
    }));
    documents.push(document('graph', text, { info_type: 'graph' }, { entities, relations }));
  }
  return { documents, failures };
}

/** `key: value` lines: a profile as a passage retrieval and people can read. */
function describe(fields: Record<string, unknown>): string {
  return Object.entries(fields)
    .map(([key, value]) => `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join('\n');
}

function graphFacts(
  edges: ReadonlyArray<{ source: string; target: string; type: string; weight: number }>,
  ref: (id: string) => { type: string; name: string },
  span: { start: number; end: number },
): DocumentFacts {
  const ids = [...new Set(edges.flatMap((item) => [item.source, item.target]))];
  return {
    entities: ids.map((id) => ({ ...ref(id), mentions: [span] })),
    relations: edges.map((item) => ({
      from: ref(item.source),
      to: ref(item.target),
      type: item.type as RelationType,
      weight: item.weight,
    })),
  };
}

/** The `.json` loader: a knowledge pack when the file is shaped like one, else records. */
export function jsonOrPack(records: Loader): Loader {
  return (input) => {
    if (!input.sourcePath.toLowerCase().endsWith('.json')) return records(input);
    let value: unknown;
    try {
      value = JSON.parse(input.text);
    } catch {
      return records(input);
    }
    return isKnowledgePack(value) ? loadKnowledgePack(input.sourcePath, value) : records(input);
  };
}
