import { ErrorCode, RagError } from '../errors/index.js';
import type { Direction, GraphEdge, GraphEntity, Neighbourhood, NeighbourhoodQuery } from './graph-store.js';

export const MAX_HOPS = 3;
export const DEFAULT_NEIGHBOUR_LIMIT = 100;

/**
 * The edges touching a frontier, in the given direction and of the given types. With `perEntity`
 * a store may return only each frontier entity's strongest edges per side; `cut` then gives, for
 * every entity whose list it shortened, a weight no edge it left out exceeds. Null: every edge.
 */
export type LevelEdges = (
  frontier: readonly string[],
  direction: Direction,
  relationTypes: readonly string[] | null,
  perEntity: number | null,
) => Promise<Level>;

export interface Level {
  edges: GraphEdge[];
  cut: Map<string, number>;
}

export interface Reached {
  hop: number;
  strength: number;
}

const edgeStrength = (weight: number) => weight / (weight + 1);

/**
 * Level-by-level expansion with a visited set: one query per hop, whatever the backend, so a
 * hub entity costs one round trip instead of a combinatorial path enumeration. Strength is the
 * best product along a path of w / (w + 1) per edge: stronger (more often asserted) edges and
 * fewer hops rank first. The entity limit applies per level to the strongest new entities, so
 * the frontier never grows past it.
 *
 * A level first asks for each frontier entity's `remaining + reached` strongest edges, which is
 * enough whenever no left-out edge could make a stronger entity than the weakest one chosen; when
 * one could, the shortened entities are read again in full. So the chosen strengths are those of
 * the full expansion, and only which of several equally strong entities is kept may differ.
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
    const remaining = limit - found;
    const frontierSet = new Set(frontier);
    const candidates = new Map<string, number>();
    const walk = (level: GraphEdge[]) => {
      for (const edge of level) {
        edges.set(`${edge.from}\u0000${edge.to}\u0000${edge.type}`, edge);
        const ends: Array<[string, string]> = [];
        if (direction !== 'in' && frontierSet.has(edge.from)) ends.push([edge.from, edge.to]);
        if (direction !== 'out' && frontierSet.has(edge.to)) ends.push([edge.to, edge.from]);
        for (const [near, far] of ends) {
          if (reached.has(far)) continue;
          const strength = reached.get(near)!.strength * edgeStrength(edge.weight);
          if (strength > (candidates.get(far) ?? 0)) candidates.set(far, strength);
        }
      }
    };
    const choose = () =>
      [...candidates.entries()]
        .sort((left, right) => right[1] - left[1] || (left[0] < right[0] ? -1 : 1))
        .slice(0, remaining);

    const first = await levelEdges(frontier, direction, relationTypes, remaining + reached.size);
    walk(first.edges);
    let next = choose();
    const weakest = next.length === remaining ? next[next.length - 1]![1] : 0;
    const unsure = [...first.cut].filter(
      ([id, bound]) => reached.get(id)!.strength * edgeStrength(bound) > weakest,
    );
    if (unsure.length > 0) {
      const rest = await levelEdges(
        unsure.map(([id]) => id),
        direction,
        relationTypes,
        null,
      );
      walk(rest.edges);
      next = choose();
    }
    for (const [id, strength] of next) reached.set(id, { hop, strength });
    found += next.length;
    frontier = next.map(([id]) => id);
  }
  // Edges to entities cut by the limit are left out: every returned edge has both ends returned.
  const kept = [...edges.values()].filter((edge) => reached.has(edge.from) && reached.has(edge.to));
  return { reached, edges: kept };
}

/**
 * A store's neighbourhood(): the walk, then the reached entities as the store reads them, nearest
 * and strongest first (ties by id) so every backend answers in the same order.
 */
export async function walkNeighbourhood(
  query: NeighbourhoodQuery,
  levelEdges: LevelEdges,
  readEntities: (ids: string[]) => Promise<GraphEntity[]>,
): Promise<Neighbourhood> {
  const { reached, edges } = await breadthFirst(query, levelEdges);
  const entities = await readEntities([...reached.keys()]);
  return {
    entities: entities
      .map((entity) => ({ ...entity, ...reached.get(entity.id)! }))
      .sort(
        (left, right) =>
          left.hop - right.hop || right.strength - left.strength || (left.id < right.id ? -1 : 1),
      ),
    edges,
  };
}
