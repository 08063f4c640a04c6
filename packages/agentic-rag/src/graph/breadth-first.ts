import { ErrorCode, RagError } from '../errors/index.js';
import type { Direction, GraphEdge, NeighbourhoodQuery } from './graph-store.js';

export const MAX_HOPS = 3;
export const DEFAULT_NEIGHBOUR_LIMIT = 100;

/** The edges touching a frontier, in the given direction and of the given types. */
export type LevelEdges = (
  frontier: readonly string[],
  direction: Direction,
  relationTypes: readonly string[] | null,
) => Promise<GraphEdge[]>;

export interface Reached {
  hop: number;
  strength: number;
}

/**
 * Level-by-level expansion with a visited set: one query per hop, whatever the backend, so a
 * hub entity costs one round trip instead of a combinatorial path enumeration. Strength is the
 * best product along a path of w / (w + 1) per edge: stronger (more often asserted) edges and
 * fewer hops rank first. The entity limit applies per level to the strongest new entities, so
 * the frontier never grows past it.
 */
export async function breadthFirst(
  query: NeighbourhoodQuery,
  levelEdges: LevelEdges,
): Promise<{ reached: Map<string, Reached>; edges: GraphEdge[] }> {
  if (!Number.isInteger(query.hops) || query.hops < 0 || query.hops > MAX_HOPS) {
    throw new RagError(ErrorCode.INVALID_INPUT, `hops must be an integer from 0 to ${MAX_HOPS}`);
  }
  const limit = query.limit ?? DEFAULT_NEIGHBOUR_LIMIT;
  const direction = query.direction ?? 'both';
  const relationTypes = query.relationTypes && query.relationTypes.length > 0 ? query.relationTypes : null;
  const reached = new Map<string, Reached>(query.seeds.map((seed) => [seed, { hop: 0, strength: 1 }]));
  const edges = new Map<string, GraphEdge>();
  let frontier = [...reached.keys()];
  let found = 0;

  for (let hop = 1; hop <= query.hops && frontier.length > 0 && found < limit; hop++) {
    const level = await levelEdges(frontier, direction, relationTypes);
    const frontierSet = new Set(frontier);
    const candidates = new Map<string, number>();
    for (const edge of level) {
      edges.set(`${edge.from}\u0000${edge.to}\u0000${edge.type}`, edge);
      const ends: Array<[string, string]> = [];
      if (direction !== 'in' && frontierSet.has(edge.from)) ends.push([edge.from, edge.to]);
      if (direction !== 'out' && frontierSet.has(edge.to)) ends.push([edge.to, edge.from]);
      for (const [near, far] of ends) {
        if (reached.has(far)) continue;
        const strength = reached.get(near)!.strength * (edge.weight / (edge.weight + 1));
        if (strength > (candidates.get(far) ?? 0)) candidates.set(far, strength);
      }
    }
    const next = [...candidates.entries()]
      .sort((left, right) => right[1] - left[1] || (left[0] < right[0] ? -1 : 1))
      .slice(0, limit - found);
    for (const [id, strength] of next) reached.set(id, { hop, strength });
    found += next.length;
    frontier = next.map(([id]) => id);
  }
  // Edges to entities cut by the limit are left out: every returned edge has both ends returned.
  const kept = [...edges.values()].filter((edge) => reached.has(edge.from) && reached.has(edge.to));
  return { reached, edges: kept };
}
