import { z } from 'zod';
import { ErrorCode } from '../../errors/index.js';
import {
  entityKey,
  type DocumentFacts,
  type EntityFact,
  type RelationFact,
  type RelationType,
} from '../../graph/index.js';
import type { LoadedDocument, LoadFailure } from '../document.js';
import {
  parseEdge,
  parseMetadata,
  parseNode,
  pieceSchema,
  type KnowledgePiece,
  type PackEdge,
  type PackNode,
} from './knowledge-pack-schema.js';
import type { Loader, LoadResult } from './loader.js';

export { INFO_TYPES, KNOWLEDGE_TYPES } from './knowledge-pack-schema.js';
export type { KnowledgePiece, KnowledgeType } from './knowledge-pack-schema.js';

/** The sections; what is inside each is checked part by part, so one bad part loses only itself. */
const pack = z
  .object({
    metadata: z.unknown().optional(),
    pieces: z.array(z.unknown()),
    graph: z
      .object({ nodes: z.array(z.unknown()).default([]), edges: z.array(z.unknown()).default([]) })
      .strict()
      .default({ nodes: [], edges: [] }),
  })
  .strict();

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
 * `piece_id` is asserted by that piece) and whose metadata keeps every node and edge as the pack
 * gave it, so a reader can tell which edge links which piece. An invalid part is reported with
 * where it is and why, and skipped; the rest loads. A part holding a secret is refused.
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
  const metadata = parseMetadata(parsed.data.metadata);
  for (const invalid of metadata.invalid) fail(invalid.where, invalid.message);
  const packId = metadata.packId ?? sourcePath;
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
    const result = pieceSchema.safeParse(raw);
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

  const nodes = new Map<string, PackNode>();
  parsed.data.graph.nodes.forEach((raw, index) => {
    const result = parseNode(raw);
    const where = `graph.nodes[${index}]`;
    const secret = 'error' in result ? null : secretIn(describe(result.node.properties));
    if ('error' in result) fail(where, `invalid node: ${result.error}`);
    else if (secret) fail(where, `node rejected: its properties ${secret.replace(/^contains/, 'contain')}`);
    else if (nodes.has(result.node.id)) fail(where, `duplicate node id "${result.node.id}"`);
    else nodes.set(result.node.id, result.node);
  });
  const edges: PackEdge[] = [];
  parsed.data.graph.edges.forEach((raw, index) => {
    const result = parseEdge(raw);
    const where = `graph.edges[${index}]`;
    if ('error' in result) {
      fail(where, `invalid edge: ${result.error}`);
      return;
    }
    const { edge } = result;
    const secret = secretIn(describe(edge.properties));
    if (secret) fail(where, `edge rejected: its properties ${secret.replace(/^contains/, 'contain')}`);
    else if (!nodes.has(edge.source) || !nodes.has(edge.target))
      fail(where, `edge ${edge.source} → ${edge.target} names a node the pack does not have`);
    else if (edge.pieceId !== null && !pieces.has(edge.pieceId))
      fail(where, `edge names piece "${edge.pieceId}", which is not loaded`);
    else edges.push(edge);
  });

  const ref = (id: string) => {
    const found = nodes.get(id)!;
    return { type: found.type, name: found.name };
  };
  const entityFact = (item: PackNode, mentions: EntityFact['mentions']): EntityFact => ({
    ...ref(item.id),
    ...(item.label !== null && item.label.toLowerCase() !== item.name.toLowerCase()
      ? { aliases: [item.label] }
      : {}),
    properties: { ...item.properties, ...(item.label !== null ? { label: item.label } : {}) },
    mentions,
  });
  for (const item of pieces.values()) {
    const own = edges.filter((candidate) => candidate.pieceId === item.piece_id);
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
  for (const profile of metadata.profiles) {
    const { entityId } = profile;
    const where = `profile/${entityId}`;
    const described = describe(profile.properties);
    const secret = secretIn(described);
    if (secret) {
      fail(where, `profile rejected: it ${secret}`);
      continue;
    }
    // A profile with no properties still says the entity exists and what it is.
    const text = described || `${entityId} (${profile.entityType ?? 'entity'})`;
    // The graph node that is this entity (its id is the entity id, or it says so): the profile
    // states it, so a graph walk "from the entity" knows where to start.
    const own = [...nodes.values()].filter(
      (item) => item.id === entityId || item.properties.entity_id === entityId,
    );
    const facts =
      own.length > 0
        ? { entities: own.map((item) => entityFact(item, [{ start: 0, end: text.length }])), relations: [] }
        : undefined;
    documents.push(
      document(
        where,
        text,
        {
          entity_id: entityId,
          ...(profile.entityType !== null ? { entity_type: profile.entityType } : {}),
          info_type: 'user_profile',
          profile: profile.properties,
        },
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
  if (nodes.size > 0) documents.push(graphDocument(nodes, edges, document, entityFact));
  return { documents, failures };
}

/**
 * The graph as a passage: every node written out (so each has a mention), then the edges no piece
 * states. Its metadata keeps every node and edge in the pack's canonical form, with the graph's
 * entity ids, so a reader can route an edge by the piece it links.
 */
function graphDocument(
  nodes: ReadonlyMap<string, PackNode>,
  edges: readonly PackEdge[],
  document: (
    id: string,
    text: string,
    fields: Record<string, unknown>,
    facts?: DocumentFacts,
  ) => LoadedDocument,
  entityFact: (item: PackNode, mentions: EntityFact['mentions']) => EntityFact,
): LoadedDocument {
  const ref = (id: string) => ({ type: nodes.get(id)!.type, name: nodes.get(id)!.name });
  const shown = (id: string) => nodes.get(id)!.label ?? nodes.get(id)!.name;
  const shared = edges.filter((candidate) => candidate.pieceId === null);
  const lines: string[] = [];
  const spans = new Map<string, { start: number; end: number }>();
  let offset = 0;
  for (const item of nodes.values()) {
    const line = `${shown(item.id)} (${item.type})`;
    spans.set(item.id, { start: offset, end: offset + line.length });
    lines.push(line);
    offset += line.length + 1;
  }
  for (const item of shared) lines.push(`${shown(item.source)} ${item.type} ${shown(item.target)}`);
  // The pack's graph is where its nodes are defined: their properties (and label) are kept from here.
  const entities = [...nodes.values()].map((item) => ({
    ...entityFact(item, [spans.get(item.id)!]),
    definition: spans.get(item.id)!,
  }));
  const relations: RelationFact[] = shared.map((item) => ({
    from: ref(item.source),
    to: ref(item.target),
    type: item.type as RelationType,
    weight: item.weight,
  }));
  const graphId = (id: string) => entityKey(nodes.get(id)!.type, nodes.get(id)!.name);
  return document(
    'graph',
    lines.join('\n'),
    {
      info_type: 'graph',
      nodes: [...nodes.values()].map((item) => ({
        node_id: item.id,
        graph_id: graphId(item.id),
        typed_id: item.typedId,
        node_type: item.type,
        ...(item.label !== null ? { label: item.label } : {}),
      })),
      edges: edges.map((item) => ({
        source_id: item.source,
        target_id: item.target,
        from: graphId(item.source),
        to: graphId(item.target),
        edge_type: item.type,
        properties: { ...item.properties, ...(item.pieceId !== null ? { piece_id: item.pieceId } : {}) },
      })),
    },
    { entities, relations },
  );
}

/** `key: value` lines: a profile as a passage retrieval and people can read. */
function describe(fields: Record<string, unknown>): string {
  return Object.entries(fields)
    .map(([key, value]) => `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join('\n');
}

function graphFacts(
  edges: readonly PackEdge[],
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
