import { describe, expect, it } from 'vitest';
import { dropWorkspace, testBackends, uniqueWorkspace } from '../../../../test/backends.js';
import type { Sql } from '../db/index.js';
import { CorpusStore } from '../store/index.js';
import { graphStoreContract } from './conformance.js';
import { PostgresGraphStore } from './postgres.js';

/** A document with these chunk ids, so mentions have rows to point at. */
async function writeSource(
  corpus: CorpusStore,
  workspaceId: string,
  sourcePath: string,
  chunkIds: readonly string[],
) {
  await corpus.writeDocument({
    workspaceId,
    sourcePath,
    sourceFile: sourcePath,
    sourceRoot: 'graph',
    kind: 'text',
    title: null,
    url: null,
    content: sourcePath,
    contentHash: sourcePath,
    pipelineFingerprint: 'graph',
    tokenCount: 1,
    metadata: {},
    embeddingModel: 'test-model',
    embeddingDimensions: 768,
    chunks: chunkIds.map((chunkId, index) => ({
      chunkId,
      index,
      text: `${sourcePath} part ${index}`,
      tokenCount: 3,
      start: 0,
      end: 1,
      sectionPath: [],
      metadata: {},
      embedding: Array.from({ length: 768 }, (_, axis) => (axis === index ? 1 : 0)),
    })),
  });
}

describe('PostgresGraphStore', () => {
  for (const backend of testBackends()) {
    graphStoreContract(backend.name, async () => {
      const sql = await backend.open();
      const workspaceId = uniqueWorkspace('graph');
      const corpus = new CorpusStore(sql);
      return {
        store: new PostgresGraphStore(sql),
        workspaceId,
        createSource: (sourcePath, chunkIds) => writeSource(corpus, workspaceId, sourcePath, chunkIds),
        async dispose() {
          await dropWorkspace(sql, workspaceId);
          await dropWorkspace(sql, `${workspaceId}-other`);
          await sql.close();
        },
      };
    });

    it(`${backend.name}: writes within a transaction it is bound to, and rolls back with it`, async () => {
      const sql: Sql = await backend.open();
      const ws = uniqueWorkspace('within');
      const store = new PostgresGraphStore(sql);
      const source = {
        workspaceId: ws,
        sourcePath: 'one.md',
        entities: [
          {
            id: 'Concept:a',
            type: 'Concept',
            name: 'a',
            aliases: [],
            properties: {},
            defines: true,
            chunks: [{ chunkId: 'one.md#0', count: 1 }],
          },
        ],
        relations: [],
      };
      try {
        await writeSource(new CorpusStore(sql), ws, 'one.md', ['one.md#0']);
        await expect(
          sql.transaction(async (tx) => {
            const bound = store.within(tx);
            await bound.replaceSource({ graph: source });
            // Inside the transaction its own writes are visible to the bound store's reads.
            expect(await bound.stats({ workspaceId: ws })).toMatchObject({ entities: 1 });
            throw new Error('the corpus write failed');
          }),
        ).rejects.toThrow('the corpus write failed');
        expect(await store.stats({ workspaceId: ws })).toMatchObject({ entities: 0 });
        await sql.transaction((tx) => store.within(tx).replaceSource({ graph: source }));
        expect(await store.stats({ workspaceId: ws })).toMatchObject({ entities: 1, sources: 1 });
      } finally {
        await dropWorkspace(sql, ws);
        await sql.close();
      }
    });

    it(`${backend.name}: keeps summed edge weights equal to the relations however rows go`, async () => {
      const sql: Sql = await backend.open();
      const ws = uniqueWorkspace('edges');
      const store = new PostgresGraphStore(sql);
      const corpus = new CorpusStore(sql);
      const relation = (from: string, to: string, weight: number) => ({ from, to, type: 'RELATED', weight });
      const graph = (sourcePath: string, relations: ReturnType<typeof relation>[]) => ({
        workspaceId: ws,
        sourcePath,
        entities: ['Concept:a', 'Concept:b', 'Concept:c'].map((id) => ({
          id,
          type: 'Concept',
          name: id.slice(8),
          aliases: [],
          properties: {},
          defines: false,
          chunks: [{ chunkId: `${sourcePath}#0`, count: 1 }],
        })),
        relations,
      });
      const drift = async () => {
        // Both ways round: an edge the relations do not explain, or a relation with no edge.
        const result = await sql.query<{ n: number }>(
          `WITH summed AS (
             SELECT from_entity_id, to_entity_id, type, sum(weight)::float8 AS weight, count(*)::int AS sources
             FROM rag_relations WHERE workspace_id = $1 GROUP BY 1, 2, 3),
           edges AS (SELECT from_entity_id, to_entity_id, type, weight, sources FROM rag_edges WHERE workspace_id = $1)
           SELECT ((SELECT count(*) FROM (SELECT * FROM summed EXCEPT SELECT * FROM edges) x)
                 + (SELECT count(*) FROM (SELECT * FROM edges EXCEPT SELECT * FROM summed) y))::int AS n`,
          [ws],
        );
        return result.rows[0]!.n;
      };
      try {
        for (const source of ['one.md', 'two.md', 'three.md'])
          await writeSource(corpus, ws, source, [`${source}#0`]);
        await store.replaceSource({
          graph: graph('one.md', [
            relation('Concept:a', 'Concept:b', 2),
            relation('Concept:b', 'Concept:c', 1),
          ]),
        });
        await store.replaceSource({ graph: graph('two.md', [relation('Concept:a', 'Concept:b', 3)]) });
        await store.replaceSource({ graph: graph('three.md', [relation('Concept:c', 'Concept:a', 1)]) });
        expect(
          await sql.query(
            'SELECT weight, sources FROM rag_edges WHERE workspace_id = $1 ORDER BY weight DESC LIMIT 1',
            [ws],
          ),
        ).toMatchObject({
          rows: [{ weight: 5, sources: 2 }],
        });
        await store.replaceSource({ graph: graph('two.md', [relation('Concept:b', 'Concept:c', 4)]) });
        expect(await drift()).toBe(0);
        // A document row deleted outside the graph store: its relations cascade, and so must the weights.
        await sql.query('DELETE FROM rag_documents WHERE workspace_id = $1 AND source_path = $2', [
          ws,
          'one.md',
        ]);
        expect(await drift()).toBe(0);
        await store.deleteSources({ workspaceId: ws, sourcePaths: ['two.md', 'three.md'] });
        expect(await drift()).toBe(0);
        expect(await sql.query('SELECT 1 FROM rag_edges WHERE workspace_id = $1', [ws])).toMatchObject({
          rowCount: 0,
        });
      } finally {
        await dropWorkspace(sql, ws);
        await sql.close();
      }
    });
  }
});
