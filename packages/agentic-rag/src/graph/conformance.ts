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
      await store.replaceSource(specGraph());
      await store.replaceSource(guideGraph());
      const [endpoint] = await store.getEntities(ws, ['Endpoint:POST /locations']);
      expect(endpoint).toEqual({
        id: 'Endpoint:POST /locations',
        type: 'Endpoint',
        name: 'POST /locations',
        aliases: ['create location'],
        properties: { method: 'POST', path: '/locations' },
        definedBy: spec,
      });
      const mentions = await store.mentions(ws, ['Endpoint:POST /locations', 'Concept:northwind freight']);
      expect(mentions).toEqual([
        { entityId: 'Concept:northwind freight', sourcePath: guide, chunkId: `${guide}#0`, count: 1 },
        { entityId: 'Concept:northwind freight', sourcePath: guide, chunkId: `${guide}#1`, count: 3 },
        { entityId: 'Endpoint:POST /locations', sourcePath: spec, chunkId: `${spec}#0`, count: 1 },
        { entityId: 'Endpoint:POST /locations', sourcePath: guide, chunkId: `${guide}#0`, count: 1 },
      ]);
      expect(await store.stats(ws)).toEqual({ entities: 5, relations: 4, mentions: 7, sources: 2 });
      expect(await store.mentionedIn(ws, [`${guide}#1`, `${spec}#1`, 'no-such-chunk'])).toEqual([
        { entityId: 'Concept:northwind freight', sourcePath: guide, chunkId: `${guide}#1`, count: 3 },
        { entityId: 'Schema:Location', sourcePath: spec, chunkId: `${spec}#1`, count: 1 },
      ]);
      const resources = await store.findEntities(ws, { type: 'Resource' });
      expect(resources.map((found) => found.id)).toEqual(['Resource:location']);
      expect(await store.getEntities(ws, ['Schema:Nope', 'Schema:Location'])).toMatchObject([
        { id: 'Schema:Location' },
      ]);
    });

    it('replacing a source removes what only it asserted, with no orphans', async () => {
      await store.replaceSource(specGraph());
      await store.replaceSource(guideGraph());
      const smaller = specGraph();
      smaller.entities = smaller.entities.filter((found) => found.id !== 'Schema:Location');
      smaller.relations = smaller.relations.filter((relation) => relation.type !== 'REFERENCES');
      await store.replaceSource(smaller);
      expect(await store.getEntities(ws, ['Schema:Location'])).toEqual([]);
      expect(await store.stats(ws)).toEqual({ entities: 4, relations: 3, mentions: 6, sources: 2 });
      const around = await store.neighbourhood({
        workspaceId: ws,
        seeds: ['Endpoint:POST /locations'],
        hops: 2,
      });
      expect(around.entities.map((found) => found.id)).not.toContain('Schema:Location');
      // Replacing with the same facts twice is a no-op.
      await store.replaceSource(smaller);
      expect(await store.stats(ws)).toEqual({ entities: 4, relations: 3, mentions: 6, sources: 2 });
    });

    it('edge weights add up over sources and lose exactly a deleted source’s share', async () => {
      const second = guideGraph();
      second.sourcePath = spec;
      second.entities = second.entities.map((found) => ({
        ...found,
        chunks: [{ chunkId: `${spec}#0`, count: 1 }],
      }));
      await store.replaceSource(guideGraph());
      await store.replaceSource(second);
      const weight = async () => {
        const around = await store.neighbourhood({
          workspaceId: ws,
          seeds: ['Concept:northwind freight'],
          hops: 1,
        });
        return around.edges.find((edge) => edge.type === 'RELATED')?.weight;
      };
      expect(await weight()).toBe(4);
      await store.deleteSources(ws, [spec]);
      expect(await weight()).toBe(2);
      expect((await store.stats(ws)).entities).toBe(2);
    });

    it('deleting the defining source clears the definition of an entity others still mention', async () => {
      await store.replaceSource(specGraph());
      await store.replaceSource(guideGraph());
      await store.deleteSources(ws, [spec]);
      const [endpoint] = await store.getEntities(ws, ['Endpoint:POST /locations']);
      expect(endpoint).toMatchObject({ properties: {}, definedBy: null });
      expect(
        await store.getEntities(ws, ['Resource:location', 'OperationType:create', 'Schema:Location']),
      ).toEqual([]);
      await store.deleteSources(ws, [guide]);
      expect(await store.stats(ws)).toEqual({ entities: 0, relations: 0, mentions: 0, sources: 0 });
    });

    it('walks the neighbourhood by hops, relation types and direction', async () => {
      await store.replaceSource(specGraph());
      await store.replaceSource(guideGraph());
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

    it('keeps workspaces apart and rejects malformed ids and hop counts', async () => {
      await store.replaceSource(specGraph());
      const other = `${ws}-other`;
      expect(await store.getEntities(other, ['Endpoint:POST /locations'])).toEqual([]);
      expect(await store.stats(other)).toEqual({ entities: 0, relations: 0, mentions: 0, sources: 0 });
      await expect(store.getEntities(ws, ['no-colon'])).rejects.toMatchObject({ code: 'INVALID_INPUT' });
      await expect(
        store.neighbourhood({ workspaceId: ws, seeds: ['Resource:location'], hops: 4 }),
      ).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    });
  });
}
