import type { Sql } from '../db/index.js';

/**
 * Autovacuum's default analyze threshold: a table is analysed again once 50 rows plus a tenth of
 * its rows have changed.
 */
const BASE_THRESHOLD = 50;
const SCALE_FACTOR = 0.1;

/**
 * Keeps planner statistics current where nothing else does. PGlite (the embedded default) runs no
 * autovacuum, so a workspace loaded after start-up was planned as if its tables were empty: the
 * graph channel's joins and every lexical fallback were chosen for a few rows and read thousands.
 * After writes that change as many chunks as autovacuum's threshold, this runs ANALYZE (a sample
 * of each table; well under a second at 100k chunks). A server has autovacuum: nothing runs there.
 */
export class PlannerStatistics {
  private changed = 0;
  private analysedChunks = 0;
  private running: Promise<void> | null = null;

  constructor(private readonly sql: Sql) {}

  /** Counts changed chunks and analyses when the threshold is passed; never throws. */
  async changedChunks(count: number): Promise<void> {
    if (this.sql.backend !== 'pglite' || count <= 0) return;
    this.changed += count;
    if (this.running || this.changed < BASE_THRESHOLD + SCALE_FACTOR * this.analysedChunks) return;
    this.changed = 0;
    this.running = this.analyse().finally(() => {
      this.running = null;
    });
    await this.running;
  }

  private async analyse(): Promise<void> {
    try {
      await this.sql.query('ANALYZE');
      const chunks = await this.sql.query<{ estimate: number }>(
        "SELECT reltuples::float8 AS estimate FROM pg_class WHERE oid = 'rag_chunks'::regclass",
      );
      this.analysedChunks = Math.max(0, Number(chunks.rows[0]?.estimate ?? 0));
    } catch {
      // Statistics only steer plans; a write that succeeded does not fail for them.
    }
  }
}
