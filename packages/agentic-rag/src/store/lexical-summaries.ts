import { loadSqlFile, type Sql, type SqlExecutor } from '../db/index.js';
import { RagError } from '../errors/index.js';

const SUMMARISE_RANGES = loadSqlFile(new URL('./sql/summarise-lexical-ranges.sql', import.meta.url));

/** Chunk ids per summarised range: Lucene's block size, and what the migration backfilled with. */
export const DEFAULT_RANGE_SIZE = 128;

/** Serialises summary writers of one workspace (with the workspace's hash as the second key). */
const SUMMARY_LOCK_CLASS = 735_116_202;

/**
 * How long a refresh waits for chunk writers that are mid-transaction before leaving the new
 * ranges for the next refresh (writers queue behind the wait, so it stays short).
 */
const WRITER_WAIT = '2s';

export interface RefreshLexicalSummariesOptions {
  /** Ranges for a workspace that has none yet; an existing watermark keeps its own size. */
  rangeSize?: number;
}

export interface LexicalSummaryResult {
  /** Chunk ids below this are summarised; the rest are the exactly scored tail. */
  summarisedBelow: number;
  rangeSize: number;
  /** Summary rows (lexeme × range) written: the new ranges', or for a rebuild all of them. */
  summaries: number;
  /** False when writers held the chunks too long and nothing changed; the next call catches up. */
  refreshed: boolean;
}

/**
 * Summarises the ranges of chunk ids completed since the workspace's watermark (see
 * migrations/2026-11-27_2_lexical_ranges.sql), so lexical search can prune by block-max bounds.
 * Cheap (it reads only the postings of chunks written since the last call), idempotent, and safe
 * to run concurrently with writers and with itself. Call it with the database, not inside a
 * transaction that wrote chunks: it first waits until no chunk write is in flight, because an
 * uncommitted chunk with a smaller id than a committed one would otherwise land in a range
 * already summarised without it. Search is exact whether or not this ever runs; it only gets faster.
 */
export async function refreshLexicalSummaries(
  sql: Sql,
  workspaceId: string,
  options: RefreshLexicalSummariesOptions = {},
): Promise<LexicalSummaryResult> {
  const committedMax = await largestSettledChunkId(sql);
  return sql.transaction(async (tx) => {
    await lockSummaries(tx, workspaceId);
    const current = await readWatermark(tx, workspaceId);
    const rangeSize = current?.rangeSize ?? checkRangeSize(options.rangeSize ?? DEFAULT_RANGE_SIZE);
    const from = current?.summarisedBelow ?? 0;
    if (committedMax === null) return { summarisedBelow: from, rangeSize, summaries: 0, refreshed: false };
    const below = completedBelow(committedMax, rangeSize);
    if (below <= from && current) return { summarisedBelow: from, rangeSize, summaries: 0, refreshed: true };
    const summaries = below > from ? await summarise(tx, workspaceId, rangeSize, from, below) : 0;
    await writeWatermark(tx, workspaceId, rangeSize, Math.max(below, from));
    return { summarisedBelow: Math.max(below, from), rangeSize, summaries, refreshed: true };
  });
}

/**
 * Summarises the workspace's ranges from scratch: tightens bounds loosened by many deletions, or
 * changes the range size. Reads every posting of the workspace; queries stay exact throughout
 * (they see the old summaries or the new ones, never a mix).
 */
export async function rebuildLexicalSummaries(
  sql: Sql,
  workspaceId: string,
  options: RefreshLexicalSummariesOptions = {},
): Promise<LexicalSummaryResult> {
  const committedMax = await largestSettledChunkId(sql);
  return sql.transaction(async (tx) => {
    await lockSummaries(tx, workspaceId);
    const current = await readWatermark(tx, workspaceId);
    const rangeSize = checkRangeSize(options.rangeSize ?? current?.rangeSize ?? DEFAULT_RANGE_SIZE);
    await tx.query('DELETE FROM rag_lexical_ranges WHERE workspace_id = $1', [workspaceId]);
    // Writers held the chunks too long: summarise nothing rather than guess which ids are settled.
    const below = committedMax === null ? 0 : completedBelow(committedMax, rangeSize);
    const summaries = below > 0 ? await summarise(tx, workspaceId, rangeSize, 0, below) : 0;
    await writeWatermark(tx, workspaceId, rangeSize, below);
    return { summarisedBelow: below, rangeSize, summaries, refreshed: committedMax !== null };
  });
}

/**
 * The largest chunk id once no chunk write is in flight: every id at or below it is then either
 * committed or rolled back for good, and every later chunk gets a larger id (ids come from one
 * identity sequence, taken only by INSERTs that hold ROW EXCLUSIVE, which SHARE waits out).
 * Null when writers did not finish within WRITER_WAIT.
 */
async function largestSettledChunkId(sql: Sql): Promise<number | null> {
  try {
    return await sql.transaction(async (tx) => {
      await tx.query("SELECT set_config('lock_timeout', $1, true)", [WRITER_WAIT]);
      await tx.query('LOCK TABLE rag_chunks IN SHARE MODE');
      const result = await tx.query<{ max_id: number | null }>('SELECT max(id) AS max_id FROM rag_chunks');
      return Number(result.rows[0]?.max_id ?? 0);
    });
  } catch (error) {
    if (sqlState(error) === '55P03') return null;
    throw error;
  }
}

function sqlState(error: unknown): string | undefined {
  if (error instanceof RagError) {
    const state = error.details?.sqlState;
    return typeof state === 'string' ? state : sqlState(error.cause);
  }
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** The end of the last range whose every id is at most `maxId` (ids from 1; range r is [r·size, (r+1)·size)). */
function completedBelow(maxId: number, rangeSize: number): number {
  return Math.floor((maxId + 1) / rangeSize) * rangeSize;
}

function checkRangeSize(rangeSize: number): number {
  if (!Number.isInteger(rangeSize) || rangeSize < 1)
    throw new RangeError(`range size must be a positive integer`);
  return rangeSize;
}

async function lockSummaries(tx: SqlExecutor, workspaceId: string): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock($1::integer, hashtext($2))', [
    SUMMARY_LOCK_CLASS,
    workspaceId,
  ]);
}

async function readWatermark(
  tx: SqlExecutor,
  workspaceId: string,
): Promise<{ rangeSize: number; summarisedBelow: number } | undefined> {
  const result = await tx.query<{ range_size: number; summarised_below: number }>(
    'SELECT range_size, summarised_below FROM rag_lexical_watermarks WHERE workspace_id = $1',
    [workspaceId],
  );
  const row = result.rows[0];
  return row ? { rangeSize: row.range_size, summarisedBelow: Number(row.summarised_below) } : undefined;
}

async function writeWatermark(
  tx: SqlExecutor,
  workspaceId: string,
  rangeSize: number,
  summarisedBelow: number,
): Promise<void> {
  // A workspace with no row yet (no document ever written) has nothing to summarise.
  await tx.query(
    `INSERT INTO rag_lexical_watermarks (workspace_id, range_size, summarised_below)
     SELECT id, $2, $3 FROM rag_workspaces WHERE id = $1
     ON CONFLICT (workspace_id) DO UPDATE SET range_size = excluded.range_size, summarised_below = excluded.summarised_below`,
    [workspaceId, rangeSize, summarisedBelow],
  );
}

async function summarise(
  tx: SqlExecutor,
  workspaceId: string,
  rangeSize: number,
  from: number,
  below: number,
): Promise<number> {
  const result = await tx.query(SUMMARISE_RANGES, [workspaceId, rangeSize, from, below]);
  return result.rowCount;
}
