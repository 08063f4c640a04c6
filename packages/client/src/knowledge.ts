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

export interface GraphFact {
  /** `from RELATION to`, stable across calls. */
  id: string;
  from: string;
  relation: string;
  to: string;
  /** Hops from the entity's own nodes (1 for their direct edges). */
  depth: number;
  /** 1 / depth. */
  score: number;
}

export interface KnowledgeBundle {
  query: string;
  namespace: { workspaceId: string; entityId: string | null };
  /** The entity's profile (its pack's `metadata.entities[entityId]`), or null. */
  metadata: Record<string, unknown> | null;
  /** What every pack of the workspace says about everyone (`metadata.global`). */
  globalMetadata: Record<string, unknown>;
  pieces: ScoredPiece[];
  graph: GraphFact[];
  /** Pieces and graph facts in one list, by (−score, id): the order to show them in. */
  items: Array<({ kind: 'piece' } & ScoredPiece) | ({ kind: 'relationship' } & GraphFact)>;
}
