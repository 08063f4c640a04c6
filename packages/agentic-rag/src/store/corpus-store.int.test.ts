import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testBackends } from '../../../../test/backends.js';
import type { Sql } from '../db/index.js';
import { singleChunkDocument } from '../../../../test/documents.js';
import { PostgresGraphStore, type SourceGraph } from '../graph/index.js';
import { CorpusStore } from './corpus-store.js';
import { LexicalSegmentCache } from './lexical-segments/index.js';
import type { WriteDocumentInput } from './write-batch.js';

const document = (workspaceId: string, sourcePath: string, text: string) =>
  singleChunkDocument({ workspaceId, sourcePath, text });

describe.each(testBackends())('CorpusStore on $name', (backend) => {
  let sql: Sql;
  let store: CorpusStore;
  const indexDefinition = async () =>
    (
      await sql.query<{ indexdef: string }>(
        "SELECT indexdef FROM pg_indexes WHERE tablename = 'rag_chunks' AND indexname = 'rag_chunks_embedding_idx'",
      )
    ).rows[0]?.indexdef;

  beforeAll(async () => {
    sql = await backend.open();
    store = new CorpusStore(sql);
  });
  /** A database no other test writes to (PGlite opens a fresh one). */
  const ownDatabase = async () => {
    const opened = await backend.open();
    return {
      sql: opened,
      store: new CorpusStore(opened),
      index: async () =>
        (
          await opened.query<{ indexdef: string }>(
            "SELECT indexdef FROM pg_indexes WHERE tablename = 'rag_chunks' AND indexname = 'rag_chunks_embedding_idx'",
          )
        ).rows[0]?.indexdef,
    };
  };
  afterAll(async () => {
    await sql.close();
  });

  it('builds again exactly the indexes the migrations made, whichever a bulk load dropped', async () => {
    const definitions = async () =>
      (
        await sql.query<{ indexdef: string }>(
          `SELECT indexdef FROM pg_indexes
           WHERE indexname IN ('rag_chunks_embedding_idx')
           ORDER BY indexname`,
        )
      ).rows.map((row) => row.indexdef);
    const fromMigrations = await definitions();
    expect(fromMigrations).toHaveLength(1);
    expect(fromMigrations.join('\n')).toContain('USING hnsw (embedding vector_cosine_ops)');
    if (backend.name === 'pglite') {
      // The shared Postgres serves other tests at once; a fresh PGlite is this test's alone.
      await sql.query('DROP INDEX rag_chunks_embedding_idx');
      expect(await definitions()).toEqual([]);
    }
    await store.ensureIndexes();
    expect(await definitions()).toEqual(fromMigrations);
  });

  it('searches documents by part of the id, title or kind, any case, wildcards taken literally', async () => {
    const workspace = `search-${backend.name}-${Date.now()}`;
    await store.writeDocuments([
      { ...document(workspace, 'guides/Zephyr-care.md', 'one'), title: 'Widget care' },
      { ...document(workspace, 'notes/100%_done.txt', 'two'), title: null },
      { ...document(workspace, 'notes/plain.txt', 'three'), title: 'Quarterly zephyr report', kind: 'pdf' },
      { ...document(workspace, 'notes/other.txt', 'four'), title: 'Other' },
    ]);
    const ids = async (search: string | null, first = 10, after: string | null = null) => {
      const page = await store.documents(workspace, { first, after, search });
      return { ids: page.documents.map((found) => found.sourcePath), total: page.total, more: page.hasMore };
    };
    expect(await ids('ZEPHYR')).toEqual({
      ids: ['guides/Zephyr-care.md', 'notes/plain.txt'],
      total: 2,
      more: false,
    });
    expect(await ids('%_')).toEqual({ ids: ['notes/100%_done.txt'], total: 1, more: false });
    expect((await ids('_')).ids).toEqual(['notes/100%_done.txt']);
    expect((await ids('PDF')).ids).toEqual(['notes/plain.txt']);
    expect(await ids('zephyr', 1)).toEqual({ ids: ['guides/Zephyr-care.md'], total: 2, more: true });
    expect(await ids('zephyr', 1, 'guides/Zephyr-care.md')).toEqual({
      ids: ['notes/plain.txt'],
      total: 2,
      more: false,
    });
    expect((await ids(null)).total).toBe(4);
    expect((await ids('nothing like it')).ids).toEqual([]);
  });

  it('pages documents newest update first, and a page boundary holds through a delete', async () => {
    const workspace = `updated-${backend.name}-${Date.now()}`;
    // Written one at a time, so each has its own update time; b.md last, rewritten after c.md.
    for (const name of ['a.md', 'b.md', 'c.md'])
      await store.writeDocument(document(workspace, `notes/${name}`, `first ${name}`));
    await store.writeDocument(document(workspace, 'notes/b.md', 'second b.md'));
    const page = (first: number, after: string | null = null) =>
      store.documents(workspace, { first, after, order: 'updated' });
    const first = await page(2);
    expect(first.documents.map((found) => found.sourcePath)).toEqual(['notes/b.md', 'notes/c.md']);
    expect(first.hasMore).toBe(true);
    // The last row of the page goes: the next page still starts right after where it was.
    await store.deleteDocuments(workspace, ['notes/c.md']);
    const second = await page(2, first.positions.at(-1)!);
    expect(second.documents.map((found) => found.sourcePath)).toEqual(['notes/a.md']);
    expect(second.hasMore).toBe(false);
    await expect(page(2, 'not a position')).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await sql.query('DELETE FROM rag_workspaces WHERE id = $1', [workspace]);
  });

  it('keeps the old version whole when replacing a document fails half-way', async () => {
    const workspace = `store-${backend.name}-rollback`;
    await store.writeDocument(document(workspace, 'a.txt', 'first version'));
    // Postgres text cannot hold NUL: the chunk insert fails after the old chunks were deleted.
    await expect(store.writeDocument(document(workspace, 'a.txt', 'second\u0000version'))).rejects.toThrow();
    const chunks = await sql.query<{ text: string }>('SELECT text FROM rag_chunks WHERE workspace_id = $1', [
      workspace,
    ]);
    expect(chunks.rows).toEqual([{ text: 'first version' }]);
    expect(await store.documentState(workspace, 'a.txt')).toEqual({
      contentHash: 'hash-of-first version',
      pipelineFingerprint: 'hand',
    });
    expect((await store.stats(workspace)).corpusVersion).toBe(1);
    await sql.query('DELETE FROM rag_workspaces WHERE id = $1', [workspace]);
  });

  it("keeps a document's graph facts with its rows: a replace that fails half-way leaves the old facts", async () => {
    const workspace = `store-${backend.name}-graph-rollback`;
    const graph = new PostgresGraphStore(sql);
    const withGraph = new CorpusStore(sql, { graph });
    const version = (text: string, name: string): WriteDocumentInput => {
      const input = document(workspace, 'a.txt', text);
      const entity = {
        id: `Concept:${name}`,
        type: 'Concept',
        name,
        aliases: [],
        properties: {},
        defines: true,
        chunks: [{ chunkId: input.chunks[0]!.chunkId, count: 1 }],
      };
      return {
        ...input,
        graph: { workspaceId: workspace, sourcePath: 'a.txt', entities: [entity], relations: [] },
      };
    };
    await withGraph.writeDocument(version('first version', 'first'));
    // The old facts are deleted in the store's transaction before the chunk insert fails on NUL.
    await expect(withGraph.writeDocument(version('second\u0000version', 'second'))).rejects.toThrow();
    const ids = ['Concept:first', 'Concept:second'];
    expect(await graph.getEntities({ workspaceId: workspace, ids })).toMatchObject([
      { id: 'Concept:first', definedBy: 'a.txt' },
    ]);
    expect(await graph.stats({ workspaceId: workspace })).toEqual({
      entities: 1,
      relations: 0,
      mentions: 1,
      sources: 1,
    });
    await withGraph.deleteDocuments(workspace, ['a.txt']);
    expect(await graph.stats({ workspaceId: workspace })).toEqual({
      entities: 0,
      relations: 0,
      mentions: 0,
      sources: 0,
    });
    await sql.query('DELETE FROM rag_workspaces WHERE id = $1', [workspace]);
  });

  it("takes a chunk's postings with it however the chunk goes: replaced, deleted, or its workspace deleted", async () => {
    const workspace = `store-${backend.name}-postings`;
    // Postings of live chunks, as a search sees them: in segments, less the tombstoned chunks.
    const postings = async () => {
      const view = await new LexicalSegmentCache().open(sql, workspace);
      let count = 0;
      for (const segment of view.segments)
        for (const lexeme of segment.lexemes())
          for (const at of segment.postings(lexeme)!.positions)
            if (!view.tombstones.has(segment.chunkIds[at]!)) count++;
      return count;
    };
    await store.writeDocuments([
      document(workspace, 'a.txt', 'alpha beta gamma'),
      document(workspace, 'b.txt', 'delta epsilon'),
    ]);
    expect(await postings()).toBe(5);
    await store.writeDocument(document(workspace, 'a.txt', 'alpha zeta'));
    expect(await postings()).toBe(4);
    await store.deleteDocuments(workspace, ['b.txt']);
    expect(await postings()).toBe(2);
    await sql.query('DELETE FROM rag_workspaces WHERE id = $1', [workspace]);
    expect(await postings()).toBe(0);
  });

  it.runIf(backend.name === 'postgres')(
    'writes batches at once without deadlocking when they share entities in opposite orders',
    async () => {
      const workspace = `store-concurrent-${Date.now()}`;
      const graphStore = new CorpusStore(sql, { graph: new PostgresGraphStore(sql) });
      const names = Array.from({ length: 40 }, (_, index) => `Term ${index}`);
      // Each document mentions one entity; one batch's documents go through the entities in
      // ascending order, the other's in descending order.
      const withEntity = (sourcePath: string, name: string): WriteDocumentInput => {
        const input = document(workspace, sourcePath, `text of ${sourcePath}`);
        const graph: SourceGraph = {
          workspaceId: workspace,
          sourcePath,
          entities: [
            {
              id: `Concept:${name.toLowerCase()}`,
              type: 'Concept',
              name,
              aliases: [],
              properties: {},
              defines: false,
              chunks: [{ chunkId: input.chunks[0]!.chunkId, count: 1 }],
            },
          ],
          relations: [],
        };
        return { ...input, graph };
      };
      await graphStore.writeDocument(document(workspace, 'seed.txt', 'seed'));
      for (let round = 0; round < 5; round++) {
        const forward = names.map((name, index) => withEntity(`f${round}-${index}.txt`, name));
        const backward = [...names]
          .reverse()
          .map((name, index) => withEntity(`b${round}-${index}.txt`, name));
        await Promise.all([graphStore.writeDocuments(forward), graphStore.writeDocuments(backward)]);
      }
      expect((await graphStore.stats(workspace)).documents).toBe(401);
      await sql.query('DELETE FROM rag_workspaces WHERE id = $1', [workspace]);
    },
  );

  it('rejects a malformed workspace id before writing', async () => {
    await expect(store.writeDocument(document('', 'a.txt', 'x'))).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
    await expect(store.writeDocument(document('has space', 'a.txt', 'x'))).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
  });

  it('never drops the shared indexes while another workspace holds documents: its searches keep them', async () => {
    const workspace = `store-tenant-${Date.now()}`;
    await store.writeDocument(document(`${workspace}-other`, 'a.txt', 'another tenant'));
    const held = await sql.query<{ n: number }>('SELECT count(*)::int AS n FROM rag_documents');
    const big = Math.max(100, held.rows[0]!.n) + 20;
    const during: Array<string | undefined> = [];
    await store.withBulkLoad(async () => {
      for (let index = 0; index < big; index++) {
        await store.writeDocument(document(workspace, `${index}.txt`, `doc ${index}`));
        if (index % 40 === 39) during.push(await indexDefinition());
      }
    });
    expect(during.length).toBeGreaterThan(2);
    expect(during.every((definition) => definition !== undefined)).toBe(true);
    await sql.query('DELETE FROM rag_workspaces WHERE id = ANY($1::text[])', [
      [workspace, `${workspace}-other`],
    ]);
  });

  // A database of its own: on a shared one (Postgres in CI) other workspaces always hold documents.
  it.runIf(backend.name === 'pglite')(
    'drops the vector index only once a run has written 100 documents (or as many as the database held), and rebuilds it even when the run fails',
    async () => {
      const own = await ownDatabase();
      try {
        const workspace = `store-bulk-${Date.now()}`;
        // Not an empty database (that drops the index at once; see the next test).
        await own.store.writeDocument(document(workspace, 'seed.txt', 'seed'));
        let duringSmallRun: string | undefined;
        await own.store.withBulkLoad(async () => {
          for (let index = 0; index < 99; index++)
            await own.store.writeDocument(document(workspace, `${index}.txt`, `doc ${index}`));
          duringSmallRun = await own.index();
        });
        expect(duringSmallRun).toBeDefined();

        // The same 99 documents again are unchanged: no write counts, the index stays.
        let duringNoOp: string | undefined;
        await own.store.withBulkLoad(async () => {
          for (let index = 0; index < 99; index++)
            await own.store.writeDocument(document(workspace, `${index}.txt`, `doc ${index}`));
          duringNoOp = await own.index();
        });
        expect(duringNoOp).toBeDefined();

        // The threshold is what the database held, at least 100.
        const held = await own.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM rag_documents');
        const big = Math.max(100, held.rows[0]!.n) + 20;
        let duringBigRun: string | undefined = 'not checked';
        await expect(
          own.store.withBulkLoad(async () => {
            for (let index = 0; index < big; index++)
              await own.store.writeDocument(document(workspace, `big-${index}.txt`, `big ${index}`));
            duringBigRun = await own.index();
            throw new Error('run failed');
          }),
        ).rejects.toThrow('run failed');
        expect(duringBigRun).toBeUndefined();
        expect(await own.index()).toBeDefined();
      } finally {
        await own.sql.close();
      }
    },
  );

  it.runIf(backend.name === 'pglite')(
    'into an empty database, drops the vector index before the first write and builds it once at the end',
    async () => {
      const empty = await backend.open();
      try {
        const fresh = new CorpusStore(empty);
        const indexes = async () =>
          (
            await empty.query<{ n: number }>(
              `SELECT count(*)::int AS n FROM pg_indexes
               WHERE indexname IN ('rag_chunks_embedding_idx')`,
            )
          ).rows[0]!.n;
        const during: number[] = [];
        await fresh.withBulkLoad(async () => {
          for (let index = 0; index < 3; index++) {
            await fresh.writeDocument(document('store-empty', `${index}.txt`, `doc ${index}`));
            during.push(await indexes());
          }
        });
        expect(during).toEqual([0, 0, 0]);
        expect(await indexes()).toBe(1);
      } finally {
        await empty.close();
      }
    },
  );
});
