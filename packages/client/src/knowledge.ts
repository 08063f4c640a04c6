/** What a KnowledgeProvider hands an agent, before formatting. */

export interface ScoredPiece {
  /** The piece's id in its pack (`p-1`), or the document id when it has none. */
  id: string;
  sourceId: string;
  content: string;
  knowledgeType: string | null;
  infoType: string;
  tags: string[];
  /** Null for a piece every entity shares. */
  entityId: string | null;
  score: number;
}

/** One edge of the graph around the entity (what the knowledge design calls a `graph_context` entry). */
export interface GraphFact {
  /** `source RELATION target`, stable across calls. */
  id: string;
  /** The edge's ends by their typed ids (`User:alice`, `Technique:les`). */
  source: string;
  relation: string;
  target: string;
  /** Hops from the entity's own nodes (1 for their direct edges). */
  depth: number;
  /** 1 / depth. */
  score: number;
  /** The piece the edge links (its `properties.piece_id`), or null. */
  pieceId: string | null;
  /** The edge's `properties.description`, shown after it; null when it has none. */
  description: string | null;
  /** Whether the edge starts at the active entity's own node: such edges describe the entity. */
  fromEntity: boolean;
}

export interface KnowledgeBundle {
  query: string;
  namespace: { workspaceId: string; entityId: string | null };
  /** The entity's profile (its pack's metadata entry's `properties`), or null. */
  metadata: Record<string, unknown> | null;
  /** What every pack of the workspace says about everyone (the global metadata). */
  globalMetadata: Record<string, unknown>;
  /** Found by search and through graph edges that link a piece, deduplicated by id, by (−score, id). */
  pieces: ScoredPiece[];
  graph: GraphFact[];
  /** Pieces and graph facts in one list, by (−score, id): the order to show them in. */
  items: Array<({ kind: 'piece' } & ScoredPiece) | ({ kind: 'relationship' } & GraphFact)>;
}
