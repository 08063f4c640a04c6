import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testBackends } from '../../../../test/backends.js';
import type { Sql } from '../db/index.js';
import { CorpusStore } from './corpus-store.js';

describe.each(testBackends())('CorpusStore vector index on $name', (backend) => {
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
  afterAll(async () => {
    await sql.close();
  });

  it('recreates exactly the index the migration made', async () => {
    const fromMigration = await indexDefinition();
    expect(fromMigration).toContain('USING hnsw (embedding vector_cosine_ops)');
    if (backend.name === 'pglite') {
      await sql.query('DROP INDEX rag_chunks_embedding_idx');
      expect(await indexDefinition()).toBeUndefined();
    }
    await store.ensureVectorIndex();
    expect(await indexDefinition()).toBe(fromMigration);
  });

  it('drops the index only for a large load on PGlite, and always rebuilds it, even when the load fails', async () => {
    let during: string | undefined;
    await store.withBulkLoad(10, async () => {
      during = await indexDefinition();
    });
    expect(during).toBeDefined();

    await expect(
      store.withBulkLoad(500, async () => {
        during = await indexDefinition();
        throw new Error('load failed');
      }),
    ).rejects.toThrow('load failed');
    expect(during === undefined).toBe(backend.name === 'pglite');
    expect(await indexDefinition()).toBeDefined();
  });
});
