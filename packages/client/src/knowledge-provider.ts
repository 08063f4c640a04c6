import type { AgenticRagClient } from './client.js';
import { applyFormatter, pieceLine, type InfoTypeFormatter } from './format.js';
import type { GraphFact, KnowledgeBundle, ScoredPiece } from './knowledge.js';
import type { SearchHit } from './types.js';

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
  /** How `provide` writes each info type; the default is one `- content` line per piece. */
  formatters?: Record<string, InfoTypeFormatter>;
}

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

    const [own, shared, profiles, globals] = await Promise.all([
      entityId ? search({ entity_id: entityId }, topK * 2) : Promise.resolve(null),
      search({}, topK * 2),
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
      pieces.set(hit.sourceId, {
        id: text(metadata.piece_id) ?? hit.sourceId,
        sourceId: hit.sourceId,
        content: hit.text,
        knowledgeType: text(metadata.knowledge_type),
        infoType: text(metadata.info_type) ?? 'context',
        tags: Array.isArray(metadata.tags)
          ? metadata.tags.filter((tag): tag is string => typeof tag === 'string')
          : [],
        entityId: owner,
        score: hit.score,
      });
    };
    for (const hit of [...(own?.hits ?? []), ...shared.hits]) keep(hit);
    const ranked = [...pieces.values()].sort(byScoreThenId).slice(0, topK);

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
    const graph = entityId ? await this.graphAround([...new Set(seeds)]) : [];
    return {
      query,
      namespace: { workspaceId, entityId },
      metadata: typeof profile === 'object' && profile !== null ? (profile as Record<string, unknown>) : null,
      globalMetadata,
      pieces: ranked,
      graph,
      items: [
        ...ranked.map((piece) => ({ kind: 'piece' as const, ...piece })),
        ...graph.map((fact) => ({ kind: 'relationship' as const, ...fact })),
      ].sort(byScoreThenId),
    };
  }

  /** Prompt text per info type: `{instructions: "- Always ...", user_profile: "..."}`. */
  async provide(
    query: string,
    options: { entityId?: string; topK?: number } = {},
  ): Promise<Record<string, string>> {
    const bundle = await this.retrieve(query, options);
    const byType = new Map<string, ScoredPiece[]>();
    for (const piece of bundle.pieces)
      byType.set(piece.infoType, [...(byType.get(piece.infoType) ?? []), piece]);
    const provided: Record<string, string> = {};
    for (const [infoType, pieces] of [...byType].sort(([left], [right]) => left.localeCompare(right))) {
      const formatter = this.options.formatters?.[infoType];
      provided[infoType] = formatter
        ? applyFormatter(formatter, pieces, bundle)
        : pieces.map((piece) => pieceLine(piece)).join('\n');
    }
    return provided;
  }

  /** Breadth-first from the seeds, up to `graphDepth` hops; an edge reaching hop d is at depth d. */
  private async graphAround(seeds: readonly string[]): Promise<GraphFact[]> {
    if (seeds.length === 0) return [];
    const expansion = await this.options.client.expandGraph(seeds.slice(0, 50), {
      workspaceId: this.options.workspaceId,
      depth: this.options.graphDepth ?? 2,
    });
    const nodes = new Map(expansion.entities.map((entity) => [entity.id, entity]));
    for (const seed of seeds)
      if (!nodes.has(seed))
        nodes.set(seed, { id: seed, type: '', name: seed.slice(seed.indexOf(':') + 1), hop: 0, strength: 1 });
    const facts = new Map<string, GraphFact>();
    for (const edge of expansion.edges) {
      const from = nodes.get(edge.from);
      const to = nodes.get(edge.to);
      if (!from || !to) continue;
      const depth = Math.max(1, Math.max(from.hop, to.hop));
      const id = `${from.name} ${edge.type} ${to.name}`;
      const existing = facts.get(id);
      if (!existing || existing.depth > depth)
        facts.set(id, { id, from: from.name, relation: edge.type, to: to.name, depth, score: 1 / depth });
    }
    return [...facts.values()].sort(byScoreThenId);
  }
}

function byScoreThenId(left: { score: number; id: string }, right: { score: number; id: string }): number {
  return right.score - left.score || (left.id < right.id ? -1 : left.id > right.id ? 1 : 0);
}
