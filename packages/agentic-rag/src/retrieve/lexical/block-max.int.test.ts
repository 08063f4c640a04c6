import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropWorkspace, testBackends, uniqueWorkspace } from '../../../../../test/backends.js';
import { randomCorpus, RANKING_SETTINGS } from '../../../../../test/random-corpus.js';
import type { Sql } from '../../db/index.js';
import { CorpusStore } from '../../store/index.js';
import { bm25Channel } from '../channels.js';
import { analyzeLexemes } from '../../understand/index.js';
import { blockMaxBm25 } from './block-max.js';
import { rebuildLexicalSummaries, refreshLexicalSummaries } from '../../store/index.js';

const corpus = randomCorpus(20261127, 'w');
const randomDocument = corpus.document;

const SETTINGS = RANKING_SETTINGS;

const QUERIES = corpus.queries(30);

describe.each(testBackends())('block-max BM25 on $name', (backend) => {
  let sql: Sql;
  let store: CorpusStore;
  const workspace = uniqueWorkspace('blockmax');
  let written = 0;

  const writeMore = async (count: number) => {
    for (let start = 0; start < count; start += 50) {
      const batch = Array.from({ length: Math.min(50, count - start) }, () =>
        randomDocument(workspace, `d${written++}`),
      );
      await store.writeDocuments(batch);
    }
  };

  /** Every query under every setting, pruned and full; returns the strategies that answered. */
  const compareWithFull = async (): Promise<Set<string>> => {
    const strategies = new Set<string>();
    for (const query of QUERIES) {
      const analysis = await analyzeLexemes(sql, workspace, query);
      for (const settings of SETTINGS) {
        const run = (pruning: boolean) =>
          bm25Channel(sql, {
            workspaceId: workspace,
            terms: analysis.terms,
            documentFrequency: analysis.documentFrequency,
            filters: {},
            pruning,
            ...settings,
          });
        const [pruned, full] = [await run(true), await run(false)];
        expect(full.strategy).toBe('full');
        expect({ query, settings, ids: pruned.ids }).toEqual({ query, settings, ids: full.ids });
        pruned.scores.forEach((score, index) => expect(score).toBeCloseTo(full.scores[index]!, 9));
        strategies.add(pruned.strategy);
      }
    }
    return strategies;
  };

  beforeAll(async () => {
    sql = await backend.open();
    store = new CorpusStore(sql);
    await writeMore(300);
  });
  afterAll(async () => {
    await dropWorkspace(sql, workspace);
    await sql.close();
  });

  it('is exact without summaries (everything is tail) and does not use block-max then', async () => {
    expect(await compareWithFull()).not.toContain('blockmax');
  });

  it('gives the full ranking from summaries, an unsummarised tail, deletions and rewrites', async () => {
    const first = await refreshLexicalSummaries(sql, workspace, { rangeSize: 4 });
    expect(first.refreshed).toBe(true);
    expect(first.rangeSize).toBe(4);
    expect(first.summarisedBelow).toBeGreaterThan(0);
    expect(first.summaries).toBeGreaterThan(0);
    // Above the watermark: new chunks, rewritten documents (new ids); below it: deletions.
    await writeMore(60);
    await store.writeDocuments(
      Array.from({ length: 20 }, (_, index) => randomDocument(workspace, `d${index * 3}`)),
    );
    await store.deleteDocuments(
      workspace,
      Array.from({ length: 30 }, (_, index) => `d${index * 7 + 1}`),
    );
    expect(await compareWithFull()).toEqual(new Set(['blockmax']));
  });

  it('catches up idempotently, and a rebuild with another range size stays exact', async () => {
    const before = await refreshLexicalSummaries(sql, workspace);
    expect(before.rangeSize).toBe(4);
    const again = await refreshLexicalSummaries(sql, workspace);
    expect(again).toMatchObject({ summarisedBelow: before.summarisedBelow, summaries: 0, refreshed: true });
    expect(await compareWithFull()).toEqual(new Set(['blockmax']));

    const rebuilt = await rebuildLexicalSummaries(sql, workspace, { rangeSize: 16 });
    expect(rebuilt).toMatchObject({ rangeSize: 16, refreshed: true });
    expect(rebuilt.summarisedBelow).toBeGreaterThanOrEqual(before.summarisedBelow - 16);
    expect(await compareWithFull()).toEqual(new Set(['blockmax']));

    // One chunk per range: more ranges than block-max scores one by one, so some queries give up
    // on the ranges and run the full statement.
    await rebuildLexicalSummaries(sql, workspace, { rangeSize: 1 });
    const strategies = await compareWithFull();
    expect([...strategies].every((strategy) => ['blockmax', 'full'].includes(strategy))).toBe(true);
  });

  it('scores only some of the ranges when the bounds allow it, and gives up with a lower bound when they do not', async () => {
    // One chunk per range: far more ranges than the first batch scores.
    await rebuildLexicalSummaries(sql, workspace, { rangeSize: 1 });
    const watermark = (
      await sql.query<{ range_size: number; summarised_below: number }>(
        'SELECT range_size, summarised_below FROM rag_lexical_watermarks WHERE workspace_id = $1',
        [workspace],
      )
    ).rows[0]!;
    const statistics = (
      await sql.query<{ chunk_count: number; lexeme_total: number }>(
        'SELECT chunk_count, lexeme_total FROM rag_workspaces WHERE id = $1',
        [workspace],
      )
    ).rows[0]!;
    // A rare word with a common one: only ranges holding the rare word can reach the top.
    const df = await sql.query<{ lexeme: string; df: number }>(
      'SELECT lexeme, df FROM rag_vocabulary WHERE workspace_id = $1 AND df > 0 ORDER BY df, lexeme',
      [workspace],
    );
    const rare = df.rows[0]!;
    const common = df.rows[df.rows.length - 1]!;
    const idf = (frequency: number) =>
      Math.log(1 + (statistics.chunk_count - frequency + 0.5) / (frequency + 0.5));
    const search = (lexemes: Array<{ lexeme: string; df: number }>, limit: number, maxRanges?: number) =>
      blockMaxBm25(sql, {
        workspaceId: workspace,
        lexemes: lexemes.map((term) => term.lexeme),
        weights: lexemes.map((term) => idf(term.df)),
        k1: 1.2,
        b: 0.75,
        averageLength: statistics.lexeme_total / statistics.chunk_count,
        limit,
        fields: { heading: 1, title: 0 },
        watermark: { rangeSize: watermark.range_size, summarisedBelow: Number(watermark.summarised_below) },
        ...(maxRanges === undefined ? {} : { maxRanges }),
      });
    const pruned = await search([rare, common], 1);
    expect(pruned).toMatchObject({ complete: true });
    expect(pruned.rows).toHaveLength(1);
    expect(pruned.rangesScored).toBeLessThan(pruned.ranges);

    // More results asked for than the first batch can hold: every range still reaches.
    const commonest = df.rows.slice(-3);
    const exact = await search(commonest, 100, Infinity);
    const partial = await search(commonest, 100, 0);
    expect(exact.complete).toBe(true);
    expect(partial.complete).toBe(false);
    expect(partial.rows.length).toBeGreaterThan(0);
    // Real scores of some chunks: each at most the true score of its rank.
    partial.rows.forEach((row, index) =>
      expect(row.score).toBeLessThanOrEqual(exact.rows[index]!.score + 1e-9),
    );
  });
});
