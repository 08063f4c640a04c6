import type { AgenticRagClient } from './client.js';
import type { FormatOptions, InfoTypeFormatter } from './format.js';
import type { KnowledgeDocumentQuery } from './generated/graphql.js';
import type { GraphFact, KnowledgeBundle, ScoredPiece } from './knowledge.js';
import { KNOWLEDGE_DOCUMENT } from './operations.js';
import { routeKnowledge } from './route.js';
import type { GraphExpansion, SearchHit } from './types.js';

export interface KnowledgeProviderOptions {
  client: AgenticRagClient;
  /** The namespace: whose knowledge base. */
  workspaceId: string;
  /** The default entity (`user:alice`); `retrieve` may name another. */
  entityId?: string;
  /** Pieces returned (default 8). */
  topK?: number;
  /** Hops of graph context around the entity's nodes (default 2). */
  graphDepth?: number;
  /** How `provide` writes each info type's pieces; the default is the formatter's piece format. */
  formatters?: Record<string, InfoTypeFormatter>;
  /** Where `provide` puts the entity's metadata (default `user_profile`). */
  metadataInfoType?: string;
  /** The formatter settings `provide` writes with (delimiters, tags, scores). */
  format?: FormatOptions;
}

/** An edge of a pack as its graph document keeps it: what the graph store does not. */
interface PackEdge {
  pieceId: string | null;
  description: string | null;
  /** The pack file, where the linked piece is (`<file>#<piece_id>`). */
  file: string;
}

/** `packs/a.json#p-1` → `packs/a.json`. */
const packFile = (sourceId: string) => sourceId.slice(0, Math.max(0, sourceId.lastIndexOf('#'))) || sourceId;

const isPiece = (hit: SearchHit) => typeof hit.documentMetadata?.piece_id === 'string';
const text = (value: unknown) => (typeof value === 'string' ? value : null);

/**
 * Knowledge for an agent's prompt from knowledge packs: the entity's profile, the global metadata,
 * the pieces that match the question (the entity's own and the shared ones), and the graph around
 * the entity's nodes (breadth-first, each relationship scored 1/depth). Everything comes through
 * the API, so the provider runs wherever the agent does.
 */
export class KnowledgeProvider {
  constructor(private readonly options: KnowledgeProviderOptions) {}

  async retrieve(
    query: string,
    options: { entityId?: string; topK?: number } = {},
  ): Promise<KnowledgeBundle> {
    const { client, workspaceId } = this.options;
    const entityId = options.entityId ?? this.options.entityId ?? null;
    const topK = options.topK ?? this.options.topK ?? 8;
    const search = (filters: Record<string, unknown>, k: number, words = query) =>
      client.search({ query: words, workspaceId, k, filters: { kind: 'knowledge', ...filters } });

    // Pieces are searched only for a non-empty query; metadata and the graph come regardless
    // (docs/knowledge-packs.md, retrieval).
    const searching = query.trim().length > 0;
    const none = { hits: [] as SearchHit[] };
    const [own, shared, profiles, globals] = await Promise.all([
      entityId && searching ? search({ entity_id: entityId }, topK * 2) : Promise.resolve(null),
      searching ? search({}, topK * 2) : Promise.resolve(none),
      entityId
        ? search({ entity_id: entityId, info_type: 'user_profile' }, 20, `${query} profile`)
        : Promise.resolve(null),
      search({ info_type: 'global_metadata' }, 20, `${query} global metadata`),
    ]);
    const pieces = new Map<string, ScoredPiece>();
    const keep = (hit: SearchHit) => {
      const metadata = hit.documentMetadata ?? {};
      const owner = text(metadata.entity_id);
      // Shared pieces (no entity) always qualify; another entity's never do.
      if (!isPiece(hit) || (owner !== null && owner !== entityId) || pieces.has(hit.sourceId)) return;
      pieces.set(
        hit.sourceId,
        scoredPiece(metadata, {
          id: text(metadata.piece_id) ?? hit.sourceId,
          sourceId: hit.sourceId,
          content: hit.text,
          score: hit.score,
        }),
      );
    };
    for (const hit of [...(own?.hits ?? []), ...shared.hits]) keep(hit);
    const ranked = new Map(
      [...pieces.values()]
        .sort(byScoreThenId)
        .slice(0, topK)
        .map((piece) => [piece.id, piece]),
    );

    const profileHit = profiles?.hits.find((hit) => hit.documentMetadata?.profile !== undefined);
    const profile = profileHit?.documentMetadata?.profile;
    const globalMetadata = Object.assign(
      {},
      ...globals.hits
        .map((hit) => hit.documentMetadata?.global)
        .filter((value) => typeof value === 'object' && value !== null),
    ) as Record<string, unknown>;
    // The walk starts at the entity's own node, which its profile states; a pack without one
    // starts from what the entity's pieces mention.
    const seeds = profileHit?.mentions.length
      ? profileHit.mentions
      : (own?.hits ?? []).filter(isPiece).flatMap((hit) => hit.mentions);
    // The packs whose graph documents say which piece each edge links.
    const files = new Set(
      [...(own?.hits ?? []), ...shared.hits].filter(isPiece).map((hit) => packFile(hit.sourceId)),
    );
    if (profileHit) files.add(packFile(profileHit.sourceId));
    const { facts: graph, pieceFiles } = entityId
      ? await this.graphAround([...new Set(seeds)], query, files)
      : { facts: [], pieceFiles: new Map<string, string>() };
    // An edge that links a piece brings the piece along, scored by the edge's depth (graph
    // traversal extracts linked pieces, docs/knowledge-packs.md); a piece found both ways keeps
    // the higher score.
    for (const fact of graph) {
      if (fact.pieceId === null) continue;
      const known = ranked.get(fact.pieceId);
      if (known) {
        if (known.score < fact.score) ranked.set(fact.pieceId, { ...known, score: fact.score });
        continue;
      }
      const file = pieceFiles.get(fact.id);
      const linked = file ? await this.linkedPiece(fact, file, entityId) : null;
      if (linked) ranked.set(linked.id, linked);
    }
    const merged = [...ranked.values()].sort(byScoreThenId);
    return {
      query,
      namespace: { workspaceId, entityId },
      metadata: typeof profile === 'object' && profile !== null ? (profile as Record<string, unknown>) : null,
      globalMetadata,
      pieces: merged,
      graph,
      items: [
        ...merged.map((piece) => ({ kind: 'piece' as const, ...piece })),
        ...graph.map((fact) => ({ kind: 'relationship' as const, ...fact })),
      ].sort(byScoreThenId),
    };
  }

  /**
   * Prompt text per info type, routed as docs/knowledge-packs.md says: the entity's metadata to
   * `user_profile` (or `metadataInfoType`), each piece to its own `info_type`, an edge linking a
   * piece to that piece's, an edge from the entity to `user_profile`, any other edge to `context`.
   */
  async provide(
    query: string,
    options: { entityId?: string; topK?: number } = {},
  ): Promise<Record<string, string>> {
    const bundle = await this.retrieve(query, options);
    return routeKnowledge(bundle, {
      ...this.options.format,
      ...(this.options.formatters ? { formatters: this.options.formatters } : {}),
      ...(this.options.metadataInfoType ? { metadataInfoType: this.options.metadataInfoType } : {}),
    });
  }

  /**
   * Breadth-first from the seeds, up to `graphDepth` hops; an edge reaching hop d is at depth d.
   * The graph store keeps an edge's ends and type; what the pack said of it besides (the piece it
   * links, its description, the nodes' typed ids) comes from the packs' graph documents.
   */
  private async graphAround(
    seeds: readonly string[],
    query: string,
    files: ReadonlySet<string>,
  ): Promise<{ facts: GraphFact[]; pieceFiles: Map<string, string> }> {
    const pieceFiles = new Map<string, string>();
    if (seeds.length === 0) return { facts: [], pieceFiles };
    const [expansion, packs] = await Promise.all([
      this.options.client.expandGraph(seeds.slice(0, 50), {
        workspaceId: this.options.workspaceId,
        depth: this.options.graphDepth ?? 2,
      }),
      this.packGraphs(query, files),
    ]);
    const nodes = new Map(expansion.entities.map((entity) => [entity.id, entity]));
    for (const seed of seeds)
      if (!nodes.has(seed)) nodes.set(seed, { id: seed, type: '', name: seed, hop: 0, strength: 1 });
    const seedSet = new Set(seeds);
    const facts = new Map<string, GraphFact>();
    for (const edge of expansion.edges as GraphExpansion['edges']) {
      const from = nodes.get(edge.from);
      const to = nodes.get(edge.to);
      if (!from || !to) continue;
      const depth = Math.max(1, Math.max(from.hop, to.hop));
      const source = packs.typedIds.get(edge.from) ?? edge.from;
      const target = packs.typedIds.get(edge.to) ?? edge.to;
      const id = `${source} ${edge.type} ${target}`;
      const pack = packs.edges.get(`${edge.from}\u0000${edge.type}\u0000${edge.to}`);
      const existing = facts.get(id);
      if (pack?.pieceId) pieceFiles.set(id, pack.file);
      if (!existing || existing.depth > depth)
        facts.set(id, {
          id,
          source,
          relation: edge.type,
          target,
          depth,
          score: 1 / depth,
          pieceId: pack?.pieceId ?? null,
          description: pack?.description ?? null,
          fromEntity: seedSet.has(edge.from),
        });
    }
    return { facts: [...facts.values()].sort(byScoreThenId), pieceFiles };
  }

  /**
   * What the packs' graph documents say of their nodes and edges: the documents of the packs the
   * entity's profile and pieces came from, and those the search finds.
   */
  private async packGraphs(
    query: string,
    files: ReadonlySet<string>,
  ): Promise<{ typedIds: Map<string, string>; edges: Map<string, PackEdge> }> {
    const { client, workspaceId } = this.options;
    const typedIds = new Map<string, string>();
    const edges = new Map<string, PackEdge>();
    const [found, ...named] = await Promise.all([
      client.search({
        query: `${query} graph`,
        workspaceId,
        k: 20,
        filters: { kind: 'knowledge', info_type: 'graph' },
      }),
      ...[...files]
        .sort()
        .map((file) =>
          client.graphql<KnowledgeDocumentQuery>(KNOWLEDGE_DOCUMENT, { workspaceId, id: `${file}#graph` }),
        ),
    ]);
    const documents = [
      ...found.hits.map((hit) => ({ id: hit.sourceId, metadata: hit.documentMetadata ?? {} })),
      ...named.flatMap((answer) => (answer.document ? [answer.document] : [])),
    ];
    for (const document of documents) {
      const nodes = Array.isArray(document.metadata.nodes) ? document.metadata.nodes : [];
      for (const node of nodes as Array<Record<string, unknown>>)
        if (typeof node.graph_id === 'string' && typeof node.typed_id === 'string')
          typedIds.set(node.graph_id, node.typed_id);
      const packEdges = Array.isArray(document.metadata.edges) ? document.metadata.edges : [];
      for (const edge of packEdges as Array<Record<string, unknown>>) {
        const properties = (edge.properties ?? {}) as Record<string, unknown>;
        edges.set(`${String(edge.from)}\u0000${String(edge.edge_type)}\u0000${String(edge.to)}`, {
          pieceId: typeof properties.piece_id === 'string' ? properties.piece_id : null,
          description: typeof properties.description === 'string' ? properties.description : null,
          file: packFile(document.id),
        });
      }
    }
    return { typedIds, edges };
  }

  /** The piece an edge links, read by its document id; another entity's piece is not given out. */
  private async linkedPiece(
    fact: GraphFact,
    file: string,
    entityId: string | null,
  ): Promise<ScoredPiece | null> {
    if (fact.pieceId === null) return null;
    const answer = await this.options.client.graphql<KnowledgeDocumentQuery>(KNOWLEDGE_DOCUMENT, {
      workspaceId: this.options.workspaceId,
      id: `${file}#${fact.pieceId}`,
    });
    const metadata = answer.document?.metadata;
    if (!answer.document || !metadata) return null;
    const owner = text(metadata.entity_id);
    if (owner !== null && owner !== entityId) return null;
    return scoredPiece(metadata, {
      id: fact.pieceId,
      sourceId: answer.document.id,
      content: joinChunks(answer.document.chunks),
      score: fact.score,
    });
  }
}

/** A piece as a search hit or a graph edge found it: what its document's metadata says of it. */
function scoredPiece(
  metadata: Record<string, unknown>,
  found: Pick<ScoredPiece, 'id' | 'sourceId' | 'content' | 'score'>,
): ScoredPiece {
  return {
    id: found.id,
    sourceId: found.sourceId,
    content: found.content,
    knowledgeType: text(metadata.knowledge_type),
    infoType: text(metadata.info_type) ?? 'context',
    tags: Array.isArray(metadata.tags)
      ? metadata.tags.filter((tag): tag is string => typeof tag === 'string')
      : [],
    entityId: text(metadata.entity_id),
    score: found.score,
  };
}

/** A document's text from its chunks, each overlap with the previous chunk written once. */
function joinChunks(chunks: ReadonlyArray<{ text: string; startOffset: number; endOffset: number }>): string {
  let text = '';
  let covered = 0;
  for (const chunk of [...chunks].sort((left, right) => left.startOffset - right.startOffset)) {
    if (chunk.endOffset <= covered) continue;
    text += chunk.text.slice(Math.max(0, covered - chunk.startOffset));
    covered = chunk.endOffset;
  }
  return text;
}

function byScoreThenId(left: { score: number; id: string }, right: { score: number; id: string }): number {
  return right.score - left.score || (left.id < right.id ? -1 : left.id > right.id ? 1 : 0);
}
