import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropWorkspace, testBackends, uniqueWorkspace } from '../../../../../test/backends.js';
import { randomCorpus, RANKING_SETTINGS } from '../../../../../test/random-corpus.js';
import { withWorkspaceScope, type Sql } from '../../db/index.js';
import {
  checkCorpusIntegrity,
  CorpusStore,
  integrityViolations,
  LexicalSegmentCache,
  mergeSegments,
  SEGMENTS_PER_TIER,
  tierOf,
} from '../../store/index.js';
import { bm25Channel } from '../channels.js';
import { fullScanBm25 } from '../../../../../test/bm25-full-scan.js';
import { analyzeLexemes } from '../../understand/index.js';

const corpus = randomCorpus(20261129, 's');
const randomDocument = corpus.document;

const SETTINGS = RANKING_SETTINGS;

const QUERIES = corpus.queries(25);

describe.each(testBackends())('lexical segments on $name', (backend) => {
  let sql: Sql;
  let store: CorpusStore;
  const workspace = uniqueWorkspace('segments');
  const other = uniqueWorkspace('segments-other');
  let written = 0;

  const writeMore = async (count: number, batchSize = 20, target = workspace) => {
    for (let start = 0; start < count; start += batchSize) {
      const batch = Array.from({ length: Math.min(batchSize, count - start) }, () =>
        randomDocument(target, `d${written++}`),
      );
      await store.writeDocuments(batch);
    }
  };

  /** Every query under every setting, from a fresh cache or a warm one, against the brute-force scan. */
  const compareWithFull = async (cache = new LexicalSegmentCache()): Promise<number> => {
    let compared = 0;
    for (const query of QUERIES) {
      const analysis = await analyzeLexemes(sql, workspace, query);
      for (const settings of SETTINGS) {
        const base = {
          workspaceId: workspace,
          terms: analysis.terms,
          documentFrequency: analysis.documentFrequency,
          ...settings,
        };
        // Unfiltered, and narrowed to the documents whose path starts with d1 (d1, d10-d19, d100-...).
        for (const filters of [{}, { sourcePrefix: 'd1' }]) {
          const segmented = await bm25Channel(sql, { ...base, filters, segments: cache });
          const full = await fullScanBm25(sql, { ...base, filters });
          expect({ query, settings, filters, ids: segmented.ids }).toEqual({
            query,
            settings,
            filters,
            ids: full.ids,
          });
          segmented.scores.forEach((score, index) => expect(score).toBeCloseTo(full.scores[index]!, 9));
          if (full.ids.length > 0) compared++;
        }
      }
    }
    // Most comparisons rank something: an empty list on both sides proves little.
    expect(compared).toBeGreaterThan(QUERIES.length * SETTINGS.length);
    return compared;
  };

  const segmentRows = async (workspaceId = workspace) =>
    (
      await sql.query<{ id: number; posting_count: number; chunk_count: number }>(
        'SELECT id, posting_count, chunk_count FROM rag_lexical_segments WHERE workspace_id = $1 ORDER BY id',
        [workspaceId],
      )
    ).rows;

  const tombstones = async (workspaceId = workspace) =>
    Number(
      (
        await sql.query<{ count: number }>(
          'SELECT count(*)::int AS count FROM rag_lexical_tombstones WHERE workspace_id = $1',
          [workspaceId],
        )
      ).rows[0]!.count,
    );

  beforeAll(async () => {
    sql = await backend.open();
    store = new CorpusStore(sql);
    await writeMore(260);
    await writeMore(30, 10, other);
  });
  afterAll(async () => {
    await dropWorkspace(sql, workspace);
    await dropWorkspace(sql, other);
    await sql.close();
  });

  it('ranks exactly as a brute-force scan of the chunks does, and merges full tiers as it writes', async () => {
    await compareWithFull();
    const rows = await segmentRows();
    // 13 batches of 20 documents: never SEGMENTS_PER_TIER segments left in one tier.
    const perTier = new Map<number, number>();
    for (const row of rows)
      perTier.set(tierOf(row.posting_count), (perTier.get(tierOf(row.posting_count)) ?? 0) + 1);
    expect(Math.max(...perTier.values())).toBeLessThan(SEGMENTS_PER_TIER);
    expect(rows.reduce((sum, row) => sum + row.chunk_count, 0)).toBe(260);
  });

  it('stays exact through rewrites and deletions, with a cache kept across them', async () => {
    const cache = new LexicalSegmentCache();
    await compareWithFull(cache);
    await store.writeDocuments(
      Array.from({ length: 15 }, (_, index) => randomDocument(workspace, `d${index * 3}`)),
    );
    await store.deleteDocuments(
      workspace,
      Array.from({ length: 25 }, (_, index) => `d${index * 7 + 1}`),
    );
    expect(await tombstones()).toBeGreaterThan(0);
    // Rewritten documents took their old chunks' lexemes (old titles included) out of the statistics.
    expect(integrityViolations(await checkCorpusIntegrity(sql, workspace))).toEqual([]);
    await compareWithFull(cache);
    // A tiny budget evicts as it reads: still exact.
    await compareWithFull(new LexicalSegmentCache(1));
  });

  it('drops deleted postings and their tombstones when it merges', async () => {
    const before = await tombstones();
    // Enough small batches to fill tier 0 again and merge it.
    await writeMore(SEGMENTS_PER_TIER * 2, 1);
    const live = Number(
      (
        await sql.query<{ count: number }>(
          'SELECT count(*)::int AS count FROM rag_chunks WHERE workspace_id = $1',
          [workspace],
        )
      ).rows[0]!.count,
    );
    const rows = await segmentRows();
    const held = rows.reduce((sum, row) => sum + row.chunk_count, 0);
    // Every live chunk is in a segment; the deleted ones still held are exactly the tombstones.
    expect(held - (await tombstones())).toBe(live);
    expect(await tombstones()).toBeLessThanOrEqual(before);
    await compareWithFull();

    // Merging everything into one segment purges every deletion.
    expect(await tombstones()).toBeGreaterThan(0);
    await sql.transaction((tx) =>
      mergeSegments(
        tx,
        workspace,
        rows.map((row) => row.id),
      ),
    );
    const merged = await segmentRows();
    expect(merged).toHaveLength(1);
    expect(merged[0]!.chunk_count).toBe(live);
    expect(await tombstones()).toBe(0);
    expect(integrityViolations(await checkCorpusIntegrity(sql, workspace))).toEqual([]);
    await compareWithFull();
  });

  it('builds the segments of a workspace written before them, then answers from them', async () => {
    await sql.query('DELETE FROM rag_lexical_segments WHERE workspace_id = $1', [workspace]);
    await sql.query('UPDATE rag_workspaces SET lexical_segments = false WHERE id = $1', [workspace]);
    // Until the backfill, lexical search says the index is being built.
    await expect(compareWithFull()).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE' });
    expect(await store.completeLexicalSegments()).toContain(workspace);
    expect(await segmentRows()).toHaveLength(1);
    expect(await tombstones()).toBe(0);
    await compareWithFull();
    expect(await store.completeLexicalSegments()).not.toContain(workspace);
  });

  it('walls segments and tombstones by workspace, and a deleted workspace leaves neither', async () => {
    const seen = await withWorkspaceScope(workspace, () =>
      sql.transaction(async (tx) =>
        (
          await tx.query<{ workspace_id: string }>(
            'SELECT DISTINCT workspace_id FROM rag_lexical_segments UNION SELECT DISTINCT workspace_id FROM rag_lexical_tombstones',
          )
        ).rows.map((row) => row.workspace_id),
      ),
    );
    expect(seen).toEqual([workspace]);
    await store.deleteDocuments(other, ['d261', 'd262']);
    expect(await tombstones(other)).toBeGreaterThan(0);
    await dropWorkspace(sql, other);
    expect(await segmentRows(other)).toHaveLength(0);
    expect(await tombstones(other)).toBe(0);
  });
});
