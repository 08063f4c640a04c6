import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { GraphStore, SourceEntity, SourceGraph } from './graph-store.js';

/** What a backend's test gives the shared suite. */
export interface GraphFixture {
  store: GraphStore;
  workspaceId: string;
  /** Makes the source exist with these chunk ids (Postgres mentions point at real chunk rows). */
  createSource(sourcePath: string, chunkIds: readonly string[]): Promise<void>;
  dispose(): Promise<void>;
}

const entity = (
  id: string,
  chunks: Array<[string, number]>,
  extra: Partial<SourceEntity> = {},
): SourceEntity => ({
  id,
  type: id.slice(0, id.indexOf(':')),
  name: id.slice(id.indexOf(':') + 1),
  aliases: [],
  properties: {},
  defines: false,
  chunks: chunks.map(([chunkId, count]) => ({ chunkId, count })),
  ...extra,
});

/**
 * One behaviour for every GraphStore: Postgres always runs it, Neo4j whenever NEO4J_URI is set.
 * It pins down what "no stale facts" means: after a source is replaced or deleted, nothing it
 * alone asserted can be found, counted or traversed.
 */
export function graphStoreContract(name: string, open: () => Promise<GraphFixture>): void {
  describe(`GraphStore contract: ${name}`, () => {
    let fixture: GraphFixture;
    let store: GraphStore;
    let ws: string;
    const spec = 'api/openapi.yaml#paths/locations/post';
    const guide = 'guides/getting-started.md';

    const specGraph = (): SourceGraph => ({
      workspaceId: ws,
      sourcePath: spec,
      entities: [
        entity('Endpoint:POST /locations', [[`${spec}#0`, 1]], {
          defines: true,
          properties: { method: 'POST', path: '/locations' },
        }),
        entity('Resource:location', [[`${spec}#0`, 2]]),
        entity('OperationType:create', [[`${spec}#0`, 1]]),
        entity('Schema:Location', [[`${spec}#1`, 1]]),
      ],
      relations: [
        {
          from: 'Resource:location',
          to: 'Endpoint:POST /locations',
          type: 'RESOURCE_HAS_ENDPOINT',
          weight: 1,
        },
        { from: 'Endpoint:POST /locations', to: 'OperationType:create', type: 'OPERATION_TYPE', weight: 1 },
        { from: 'Endpoint:POST /locations', to: 'Schema:Location', type: 'REFERENCES', weight: 1 },
      ],
    });

    const guideGraph = (): SourceGraph => ({
      workspaceId: ws,
      sourcePath: guide,
      entities: [
        entity('Endpoint:POST /locations', [[`${guide}#0`, 1]], { aliases: ['create location'] }),
        entity('Concept:northwind freight', [
          [`${guide}#0`, 1],
          [`${guide}#1`, 3],
        ]),
      ],
      relations: [
        { from: 'Concept:northwind freight', to: 'Endpoint:POST /locations', type: 'RELATED', weight: 2 },
      ],
    });

    beforeEach(async () => {
      fixture = await open();
      store = fixture.store;
      ws = fixture.workspaceId;
      await fixture.createSource(spec, [`${spec}#0`, `${spec}#1`]);
      await fixture.createSource(guide, [`${guide}#0`, `${guide}#1`]);
    });

    afterEach(async () => {
      await fixture.dispose();
    });

    it('stores entities, their definitions, aliases and mentions', async () => {
      await store.replaceSource({ graph: specGraph() });
      await store.replaceSource({ graph: guideGraph() });
      const [endpoint] = await store.getEntities({ workspaceId: ws, ids: ['Endpoint:POST /locations'] });
      expect(endpoint).toEqual({
        id: 'Endpoint:POST /locations',
        type: 'Endpoint',
        name: 'POST /locations',
        aliases: ['create location'],
        properties: { method: 'POST', path: '/locations' },
        definedBy: spec,
      });
      const mentions = await store.mentions({
        workspaceId: ws,
        entityIds: ['Endpoint:POST /locations', 'Concept:northwind freight'],
      });
      expect(mentions).toEqual([
        { entityId: 'Concept:northwind freight', sourcePath: guide, chunkId: `${guide}#0`, count: 1 },
        { entityId: 'Concept:northwind freight', sourcePath: guide, chunkId: `${guide}#1`, count: 3 },
        { entityId: 'Endpoint:POST /locations', sourcePath: spec, chunkId: `${spec}#0`, count: 1 },
        { entityId: 'Endpoint:POST /locations', sourcePath: guide, chunkId: `${guide}#0`, count: 1 },
      ]);
      // The strongest per entity: the guide's second chunk (3 mentions) before its first (1).
      const strongest = await store.strongestMentions({
        workspaceId: ws,
        entityIds: ['Concept:northwind freight', 'Endpoint:POST /locations', 'Concept:unknown'],
        perEntity: 1,
      });
      expect(strongest.mentions).toEqual([
        { entityId: 'Concept:northwind freight', chunkId: `${guide}#1`, count: 3 },
        expect.objectContaining({ entityId: 'Endpoint:POST /locations', count: 1 }),
      ]);
      expect(strongest.spread).toEqual(
        new Map([
          ['Concept:northwind freight', 2],
          ['Endpoint:POST /locations', 2],
        ]),
      );
      expect(
        (
          await store.strongestMentions({
            workspaceId: ws,
            entityIds: ['Concept:northwind freight'],
            perEntity: 5,
          })
        ).mentions,
      ).toEqual(
        mentions
          .filter((mention) => mention.entityId === 'Concept:northwind freight')
          .map(({ entityId, chunkId, count }) => ({ entityId, chunkId, count })),
      );
      expect(await store.stats({ workspaceId: ws })).toEqual({
        entities: 5,
        relations: 4,
        mentions: 7,
        sources: 2,
      });
      expect(
        await store.mentionedIn({ workspaceId: ws, chunkIds: [`${guide}#1`, `${spec}#1`, 'no-such-chunk'] }),
      ).toEqual([
        { entityId: 'Concept:northwind freight', sourcePath: guide, chunkId: `${guide}#1`, count: 3 },
        { entityId: 'Schema:Location', sourcePath: spec, chunkId: `${spec}#1`, count: 1 },
      ]);
      const resources = await store.findEntities({ workspaceId: ws, type: 'Resource' });
      expect(resources.map((found) => found.id)).toEqual(['Resource:location']);
      expect(
        await store.getEntities({ workspaceId: ws, ids: ['Schema:Nope', 'Schema:Location'] }),
      ).toMatchObject([{ id: 'Schema:Location' }]);
    });

    it('replacing a source removes what only it asserted, with no orphans', async () => {
      await store.replaceSource({ graph: specGraph() });
      await store.replaceSource({ graph: guideGraph() });
      const smaller = specGraph();
      smaller.entities = smaller.entities.filter((found) => found.id !== 'Schema:Location');
      smaller.relations = smaller.relations.filter((relation) => relation.type !== 'REFERENCES');
      await store.replaceSource({ graph: smaller });
      expect(await store.getEntities({ workspaceId: ws, ids: ['Schema:Location'] })).toEqual([]);
      expect(await store.stats({ workspaceId: ws })).toEqual({
        entities: 4,
        relations: 3,
        mentions: 6,
        sources: 2,
      });
      const around = await store.neighbourhood({
        workspaceId: ws,
        seeds: ['Endpoint:POST /locations'],
        hops: 2,
      });
      expect(around.entities.map((found) => found.id)).not.toContain('Schema:Location');
      // Replacing with the same facts twice is a no-op.
      await store.replaceSource({ graph: smaller });
      expect(await store.stats({ workspaceId: ws })).toEqual({
        entities: 4,
        relations: 3,
        mentions: 6,
        sources: 2,
      });
    });

    it('edge weights add up over sources and lose exactly a deleted source’s share', async () => {
      const second = guideGraph();
      second.sourcePath = spec;
      second.entities = second.entities.map((found) => ({
        ...found,
        chunks: [{ chunkId: `${spec}#0`, count: 1 }],
      }));
      await store.replaceSource({ graph: guideGraph() });
      await store.replaceSource({ graph: second });
      const weight = async () => {
        const around = await store.neighbourhood({
          workspaceId: ws,
          seeds: ['Concept:northwind freight'],
          hops: 1,
        });
        return around.edges.find((edge) => edge.type === 'RELATED')?.weight;
      };
      expect(await weight()).toBe(4);
      await store.deleteSources({ workspaceId: ws, sourcePaths: [spec] });
      expect(await weight()).toBe(2);
      expect((await store.stats({ workspaceId: ws })).entities).toBe(2);
    });

    it('deleting the defining source clears the definition of an entity others still mention', async () => {
      await store.replaceSource({ graph: specGraph() });
      await store.replaceSource({ graph: guideGraph() });
      await store.deleteSources({ workspaceId: ws, sourcePaths: [spec] });
      const [endpoint] = await store.getEntities({ workspaceId: ws, ids: ['Endpoint:POST /locations'] });
      expect(endpoint).toMatchObject({ properties: {}, definedBy: null });
      expect(
        await store.getEntities({
          workspaceId: ws,
          ids: ['Resource:location', 'OperationType:create', 'Schema:Location'],
        }),
      ).toEqual([]);
      await store.deleteSources({ workspaceId: ws, sourcePaths: [guide] });
      expect(await store.stats({ workspaceId: ws })).toEqual({
        entities: 0,
        relations: 0,
        mentions: 0,
        sources: 0,
      });
    });

    it("holds 000's doc pages: DOC_DESCRIBES from an endpoint, RELATED_TO between resources, detach-delete", async () => {
      await store.replaceSource({ graph: specGraph() });
      const page = 'DocPage:guides/getting-started.md';
      await store.replaceSource({
        graph: {
          workspaceId: ws,
          sourcePath: guide,
          entities: [
            entity(page, [[`${guide}#0`, 1]], {
              defines: true,
              properties: { url: guide, title: 'Getting started' },
            }),
            entity('Endpoint:POST /locations', [[`${guide}#1`, 2]]),
            entity('Resource:location', [[`${guide}#1`, 2]]),
            entity('Resource:shipment', [[`${guide}#1`, 1]]),
          ],
          relations: [
            { from: 'Endpoint:POST /locations', to: page, type: 'DOC_DESCRIBES', weight: 3 },
            { from: 'Resource:location', to: 'Resource:shipment', type: 'RELATED_TO', weight: 1 },
          ],
        },
      });
      // (e:Endpoint)-[:DOC_DESCRIBES]->(d:DocPage), as the design's query reads it (docs/graph.md).
      const described = await store.neighbourhood({
        workspaceId: ws,
        seeds: ['Endpoint:POST /locations'],
        hops: 1,
        relationTypes: ['DOC_DESCRIBES'],
        direction: 'out',
      });
      expect(described.edges).toEqual([
        { from: 'Endpoint:POST /locations', to: page, type: 'DOC_DESCRIBES', weight: 3 },
      ]);
      expect(described.entities.find((found) => found.id === page)).toMatchObject({
        type: 'DocPage',
        name: 'guides/getting-started.md',
        properties: { url: guide, title: 'Getting started' },
        definedBy: guide,
        hop: 1,
      });
      const related = await store.neighbourhood({
        workspaceId: ws,
        seeds: ['Resource:shipment'],
        hops: 1,
        relationTypes: ['RELATED_TO'],
        direction: 'both',
      });
      expect(related.entities.map((found) => found.id).sort()).toEqual([
        'Resource:location',
        'Resource:shipment',
      ]);
      expect(
        (await store.findEntities({ workspaceId: ws, type: 'DocPage' })).map((found) => found.id),
      ).toEqual([page]);
      // A removed page goes with its edges; the endpoint the spec defines stays.
      await store.deleteSources({ workspaceId: ws, sourcePaths: [guide] });
      expect(await store.getEntities({ workspaceId: ws, ids: [page, 'Resource:shipment'] })).toEqual([]);
      expect(await store.getEntities({ workspaceId: ws, ids: ['Endpoint:POST /locations'] })).toMatchObject([
        { definedBy: spec },
      ]);
      const after = await store.neighbourhood({
        workspaceId: ws,
        seeds: ['Endpoint:POST /locations'],
        hops: 1,
        relationTypes: ['DOC_DESCRIBES'],
      });
      expect(after.edges).toEqual([]);
    });

    it('walks the neighbourhood by hops, relation types and direction', async () => {
      await store.replaceSource({ graph: specGraph() });
      await store.replaceSource({ graph: guideGraph() });
      const one = await store.neighbourhood({ workspaceId: ws, seeds: ['Resource:location'], hops: 1 });
      expect(one.entities.map((found) => [found.id, found.hop])).toEqual([
        ['Resource:location', 0],
        ['Endpoint:POST /locations', 1],
      ]);
      const two = await store.neighbourhood({ workspaceId: ws, seeds: ['Resource:location'], hops: 2 });
      expect(two.entities.map((found) => found.id).sort()).toEqual([
        'Concept:northwind freight',
        'Endpoint:POST /locations',
        'OperationType:create',
        'Resource:location',
        'Schema:Location',
      ]);
      expect(two.entities.find((found) => found.id === 'Schema:Location')?.hop).toBe(2);
      for (const edge of two.edges) {
        expect(two.entities.some((found) => found.id === edge.from)).toBe(true);
        expect(two.entities.some((found) => found.id === edge.to)).toBe(true);
      }
      const typed = await store.neighbourhood({
        workspaceId: ws,
        seeds: ['Endpoint:POST /locations'],
        hops: 1,
        relationTypes: ['REFERENCES'],
      });
      expect(typed.entities.map((found) => found.id)).toEqual([
        'Endpoint:POST /locations',
        'Schema:Location',
      ]);
      const incoming = await store.neighbourhood({
        workspaceId: ws,
        seeds: ['Endpoint:POST /locations'],
        hops: 1,
        direction: 'in',
      });
      expect(incoming.entities.map((found) => found.id).sort()).toEqual([
        'Concept:northwind freight',
        'Endpoint:POST /locations',
        'Resource:location',
      ]);
      const limited = await store.neighbourhood({
        workspaceId: ws,
        seeds: ['Endpoint:POST /locations'],
        hops: 2,
        limit: 1,
      });
      // The strongest neighbour (weight 2 beats weight 1) is the one kept.
      expect(limited.entities.map((found) => found.id)).toEqual([
        'Endpoint:POST /locations',
        'Concept:northwind freight',
      ]);
    });

    it('expands around hub entities exactly as a full walk over every edge would', async () => {
      // Skewed picks make a few hubs with many edges, so small limits cut their edge lists.
      const hubs = hubGraph(ws, [spec, guide]);
      for (const graph of hubs) await store.replaceSource({ graph });
      const cases: Array<{ seed: string; hops: number; limit: number; direction?: 'in' | 'out' }> = [
        { seed: 'Concept:c0', hops: 2, limit: 5 },
        { seed: 'Concept:c39', hops: 2, limit: 12 },
        { seed: 'Concept:c17', hops: 3, limit: 25 },
        { seed: 'Concept:c5', hops: 2, limit: 8, direction: 'out' },
        { seed: 'Concept:c2', hops: 1, limit: 3, direction: 'in' },
        // Most of the graph: the cut lists hold too few new entities and are read again in full.
        { seed: 'Concept:c0', hops: 2, limit: 34 },
        { seed: 'Concept:c31', hops: 2, limit: 36, direction: 'out' },
      ];
      for (const { seed, hops, limit, direction } of cases) {
        const found = await store.neighbourhood({ workspaceId: ws, seeds: [seed], hops, limit, direction });
        const expected = fullWalk(hubs, seed, hops, limit, direction ?? 'both');
        // Equally strong entities may be kept in either order, so compare strengths per hop.
        const profile = (entities: Array<{ hop: number; strength: number }>) =>
          entities.map((reached) => `${reached.hop}:${reached.strength.toFixed(9)}`).sort();
        expect(profile(found.entities), `${seed} ${hops} hops, limit ${limit}`).toEqual(profile(expected));
      }
    });

    it('rejects a call whose signal is already aborted with ABORTED, and writes nothing', async () => {
      await store.replaceSource({ graph: specGraph() });
      const before = await store.stats({ workspaceId: ws });
      expect(before).toEqual({ entities: 4, relations: 3, mentions: 4, sources: 1 });
      const controller = new AbortController();
      controller.abort();
      const signal = controller.signal;
      const ids = ['Endpoint:POST /locations'];
      const calls: Array<[string, () => Promise<unknown>]> = [
        ['replaceSource', () => store.replaceSource({ graph: guideGraph(), signal })],
        ['deleteSources', () => store.deleteSources({ workspaceId: ws, sourcePaths: [spec], signal })],
        ['getEntities', () => store.getEntities({ workspaceId: ws, ids, signal })],
        ['findEntities', () => store.findEntities({ workspaceId: ws, type: 'Endpoint', signal })],
        ['neighbourhood', () => store.neighbourhood({ workspaceId: ws, seeds: ids, hops: 1, signal })],
        ['mentions', () => store.mentions({ workspaceId: ws, entityIds: ids, signal })],
        [
          'strongestMentions',
          () => store.strongestMentions({ workspaceId: ws, entityIds: ids, perEntity: 1, signal }),
        ],
        ['mentionedIn', () => store.mentionedIn({ workspaceId: ws, chunkIds: [`${spec}#0`], signal })],
        ['stats', () => store.stats({ workspaceId: ws, signal })],
      ];
      for (const [method, call] of calls) {
        await expect(call(), method).rejects.toMatchObject({ code: 'ABORTED' });
      }
      // Nothing written, nothing deleted: the guide's facts never arrived and the spec's stayed.
      expect(await store.stats({ workspaceId: ws })).toEqual(before);
      expect(await store.getEntities({ workspaceId: ws, ids: ['Concept:northwind freight'] })).toEqual([]);
      expect(await store.getEntities({ workspaceId: ws, ids })).toMatchObject([{ definedBy: spec }]);
    });

    it('keeps workspaces apart and rejects malformed ids and hop counts', async () => {
      await store.replaceSource({ graph: specGraph() });
      const other = `${ws}-other`;
      expect(await store.getEntities({ workspaceId: other, ids: ['Endpoint:POST /locations'] })).toEqual([]);
      expect(await store.stats({ workspaceId: other })).toEqual({
        entities: 0,
        relations: 0,
        mentions: 0,
        sources: 0,
      });
      await expect(store.getEntities({ workspaceId: ws, ids: ['no-colon'] })).rejects.toMatchObject({
        code: 'INVALID_INPUT',
      });
      await expect(
        store.neighbourhood({ workspaceId: ws, seeds: ['Resource:location'], hops: 4 }),
      ).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    });
  });
}

/**
 * Two sources asserting edges between 40 entities picked with a strong skew (c0, c1, ... are
 * hubs), weights 1 to 3; every entity is mentioned in its source's first chunk.
 */
function hubGraph(workspaceId: string, sources: readonly string[]): SourceGraph[] {
  let state = 7;
  const next = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
  const pick = () => Math.floor(40 * next() ** 3);
  return sources.map((sourcePath) => {
    const relations = [];
    for (let edge = 0; edge < 150; edge++) {
      const from = pick();
      const to = (from + 1 + Math.floor(next() * 39)) % 40;
      relations.push({
        from: `Concept:c${from}`,
        to: `Concept:c${to}`,
        type: edge % 2 === 0 ? 'RELATED' : 'REFERENCES',
        weight: 1 + (edge % 3),
      });
    }
    const ids = new Set(relations.flatMap((relation) => [relation.from, relation.to]));
    return {
      workspaceId,
      sourcePath,
      entities: [...ids].map((id) => entity(id, [[`${sourcePath}#0`, 1]])),
      relations,
    };
  });
}

/** The neighbourhood by definition: every edge of every frontier entity, each level in full. */
function fullWalk(
  graphs: readonly SourceGraph[],
  seed: string,
  hops: number,
  limit: number,
  direction: 'in' | 'out' | 'both',
): Array<{ id: string; hop: number; strength: number }> {
  const weights = new Map<string, { from: string; to: string; weight: number }>();
  for (const relation of graphs.flatMap((graph) => graph.relations)) {
    const key = `${relation.from} ${relation.to} ${relation.type}`;
    const known = weights.get(key);
    weights.set(key, {
      from: relation.from,
      to: relation.to,
      weight: (known?.weight ?? 0) + relation.weight,
    });
  }
  const reached = new Map([[seed, { hop: 0, strength: 1 }]]);
  let frontier = [seed];
  for (let hop = 1; hop <= hops && frontier.length > 0 && reached.size - 1 < limit; hop++) {
    const candidates = new Map<string, number>();
    for (const near of frontier) {
      for (const { from, to, weight } of weights.values()) {
        const far =
          direction !== 'in' && from === near ? to : direction !== 'out' && to === near ? from : null;
        if (far === null || reached.has(far)) continue;
        const strength = reached.get(near)!.strength * (weight / (weight + 1));
        candidates.set(far, Math.max(candidates.get(far) ?? 0, strength));
      }
    }
    const next = [...candidates.entries()]
      .sort((left, right) => right[1] - left[1])
      .slice(0, limit - (reached.size - 1));
    for (const [id, strength] of next) reached.set(id, { hop, strength });
    frontier = next.map(([id]) => id);
  }
  return [...reached.entries()].map(([id, value]) => ({ id, ...value }));
}
