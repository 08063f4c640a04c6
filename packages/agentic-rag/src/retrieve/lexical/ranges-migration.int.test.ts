import { cp, mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { singleChunkDocument } from '../../../../../test/documents.js';
import { DEFAULT_MIGRATIONS_DIR, migrate, PgliteSql, type Sql } from '../../db/index.js';
import { CorpusStore } from '../../store/index.js';
import { bm25Channel } from '../channels.js';
import { analyzeLexemes } from '../../understand/index.js';

const MIGRATION = '2026-11-27_2_lexical_ranges.sql';

// The backfill on a database that already holds chunks (PGlite here; global setup applies it to
// the shared Postgres, whatever that holds).
const SEGMENTS_MIGRATION = '2026-11-29_1_lexical_segments.sql';

describe('the lexical ranges migration', () => {
  let sql: Sql;
  let earlier: string;

  beforeAll(async () => {
    earlier = await mkdtemp(path.join(os.tmpdir(), 'rag-migrations-'));
    // The schema before the migration, plus the tables today's writer needs that nothing here
    // reads (lexical segments), so the store can write the corpus the migration backfills from.
    for (const name of await readdir(DEFAULT_MIGRATIONS_DIR)) {
      if (name.endsWith('.sql') && (name < MIGRATION || name === SEGMENTS_MIGRATION))
        await cp(path.join(DEFAULT_MIGRATIONS_DIR, name), path.join(earlier, name));
    }
    sql = await PgliteSql.open();
    await migrate(sql, { directory: earlier });
    const store = new CorpusStore(sql);
    const texts = ['falcon hub', 'falcon route night', 'hub night shift', 'pallet falcon falcon'];
    await store.writeDocuments(
      Array.from({ length: 300 }, (_, index) =>
        singleChunkDocument({
          workspaceId: 'backfill',
          sourcePath: `d${index}`,
          text: `${texts[index % 4]} ${index}`,
        }),
      ),
    );
    expect((await migrate(sql)).applied).toContain(MIGRATION);
  });
  afterAll(async () => {
    await sql.close();
    await rm(earlier, { recursive: true, force: true });
  });

  it('summarises every complete range of the chunks already stored, and search uses them exactly', async () => {
    const watermark = await sql.query<{ range_size: number; summarised_below: number }>(
      "SELECT range_size, summarised_below FROM rag_lexical_watermarks WHERE workspace_id = 'backfill'",
    );
    expect(watermark.rows).toEqual([{ range_size: 128, summarised_below: 256 }]);
    const falcon = await sql.query<{ range_no: number; max_tf: number }>(
      "SELECT range_no, max_tf FROM rag_lexical_ranges WHERE workspace_id = 'backfill' AND lexeme = 'falcon' ORDER BY range_no",
    );
    expect(falcon.rows).toEqual([
      { range_no: 0, max_tf: 2 },
      { range_no: 1, max_tf: 2 },
    ]);

    const analysis = await analyzeLexemes(sql, 'backfill', 'falcon night');
    const run = (pruning: boolean) =>
      bm25Channel(sql, {
        workspaceId: 'backfill',
        terms: analysis.terms,
        documentFrequency: analysis.documentFrequency,
        limit: 10,
        k1: 1.2,
        b: 0.75,
        fields: { heading: 1, title: 0 },
        filters: {},
        pruning,
      });
    const [pruned, full] = [await run(true), await run(false)];
    expect(pruned.strategy).toBe('blockmax');
    expect(pruned.ids).toEqual(full.ids);
  });
});
