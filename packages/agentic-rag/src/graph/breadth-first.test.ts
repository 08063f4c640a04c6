import { describe, expect, it } from 'vitest';
import { breadthFirst, type LevelEdges } from './breadth-first.js';
import type { GraphEdge } from './graph-store.js';

/** Edges held in memory, listed per frontier entity strongest first and cut like a store would. */
function levelsOver(all: GraphEdge[], calls: Array<number | null>): LevelEdges {
  return async (frontier, _direction, _types, perEntity) => {
    calls.push(perEntity);
    const edges: GraphEdge[] = [];
    const cut = new Map<string, number>();
    for (const near of frontier) {
      const own = all.filter((edge) => edge.from === near).sort((left, right) => right.weight - left.weight);
      const listed = perEntity === null ? own : own.slice(0, perEntity);
      if (listed.length === perEntity && listed.length > 0) cut.set(near, listed[listed.length - 1]!.weight);
      edges.push(...listed);
    }
    return { edges, cut };
  };
}

const star = (hub: string, weights: number[]): GraphEdge[] =>
  weights.map((weight, index) => ({ from: hub, to: `${hub}-${index}`, type: 'RELATED', weight }));

describe('breadthFirst', () => {
  it('settles a level from the shortened lists when nothing left out could win', async () => {
    const calls: Array<number | null> = [];
    const edges = star('hub', [9, 8, 7, 1, 1, 1, 1, 1]);
    const { reached } = await breadthFirst(
      { workspaceId: 'w', seeds: ['hub'], hops: 1, limit: 2, direction: 'out' },
      levelsOver(edges, calls),
    );
    expect(calls).toEqual([3]);
    expect([...reached.keys()]).toEqual(['hub', 'hub-0', 'hub-1']);
  });

  it('reads a shortened entity in full when a left-out edge could beat the weakest choice', async () => {
    const calls: Array<number | null> = [];
    // a's five strongest edges lead back to entities already reached but one, so its cut list
    // offers a single new neighbour; b's only neighbour is weak, and a is read again in full.
    const edges = [
      { from: 'seed', to: 'a', type: 'RELATED', weight: 10 },
      { from: 'seed', to: 'b', type: 'RELATED', weight: 10 },
      { from: 'a', to: 'seed', type: 'RELATED', weight: 9 },
      { from: 'a', to: 'seed', type: 'REFERENCES', weight: 9 },
      { from: 'a', to: 'b', type: 'RELATED', weight: 9 },
      { from: 'a', to: 'b', type: 'REFERENCES', weight: 9 },
      { from: 'a', to: 'x1', type: 'RELATED', weight: 8 },
      { from: 'a', to: 'x2', type: 'RELATED', weight: 8 },
      { from: 'b', to: 'y', type: 'RELATED', weight: 1 },
    ];
    const { reached } = await breadthFirst(
      { workspaceId: 'w', seeds: ['seed'], hops: 2, limit: 4, direction: 'out' },
      levelsOver(edges, calls),
    );
    expect(calls).toEqual([5, 5, null]);
    const second = [...reached.entries()].filter(([, value]) => value.hop === 2).map(([id]) => id);
    expect(second).toEqual(['x1', 'x2']);
  });

  it('rejects hop counts outside 0 to 3', async () => {
    await expect(
      breadthFirst({ workspaceId: 'w', seeds: ['x'], hops: 4 }, levelsOver([], [])),
    ).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });
});
