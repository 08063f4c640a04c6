import type { Sql, SqlExecutor } from '../../db/index.js';
import { DecodedSegment, encodeSegment, type Posting } from './codec.js';

/** A lexeme's postings as insert-chunks.sql returns them: parallel arrays ordered by chunk id. */
export type PostingColumns = {
  lexeme: string;
  chunk_ids: number[];
  lengths: number[];
  tf: number[];
  tf_heading: number[];
  tf_title: number[];
};

/**
 * Segments per size tier before they are merged into one (Lucene's TieredMergePolicy merges ~10
 * segments of about one size at a time): each posting is rewritten once per tier it climbs, so a
 * write costs O(log n) rewrites while a search opens at most ~10 segments per tier.
 */
export const SEGMENTS_PER_TIER = 10;

/** Tiers by posting count, a factor of 10 apart (tier 0 holds up to 999 postings). */
const FIRST_TIER_POSTINGS = 1000;

/**
 * Writes one segment from a write batch's postings, in the caller's transaction (the one that
 * wrote the chunks), then merges the workspace's segments where a tier has filled. Call it while
 * holding the workspace row's lock: merges then never race each other.
 */
export async function writeSegment(
  tx: SqlExecutor,
  workspaceId: string,
  columns: readonly PostingColumns[],
): Promise<void> {
  const chunks = new Map<number, number>();
  const terms = new Map<string, Posting[]>();
  let postingCount = 0;
  for (const column of columns) {
    const postings: Posting[] = [];
    column.chunk_ids.forEach((chunkId, index) => {
      chunks.set(chunkId, column.lengths[index]!);
      postings.push({
        chunkId,
        tf: column.tf[index]!,
        tfHeading: column.tf_heading[index]!,
        tfTitle: column.tf_title[index]!,
      });
    });
    postingCount += postings.length;
    terms.set(column.lexeme, postings);
  }
  if (chunks.size === 0) return;
  await insertSegment(tx, workspaceId, {
    chunks: [...chunks].map(([id, length]) => ({ id, length })),
    terms,
    postingCount,
  });
  await mergeFullTiers(tx, workspaceId);
}

async function insertSegment(
  tx: SqlExecutor,
  workspaceId: string,
  segment: {
    chunks: ReadonlyArray<{ id: number; length: number }>;
    terms: ReadonlyMap<string, readonly Posting[]>;
    postingCount: number;
  },
): Promise<void> {
  await tx.query(
    'INSERT INTO rag_lexical_segments (workspace_id, chunk_count, posting_count, postings) VALUES ($1, $2, $3, $4)',
    [workspaceId, segment.chunks.length, segment.postingCount, Buffer.from(encodeSegment(segment))],
  );
}

/** A segment's size tier: 0 below FIRST_TIER_POSTINGS postings, then one more per factor of 10. */
export function tierOf(postingCount: number): number {
  return postingCount < FIRST_TIER_POSTINGS
    ? 0
    : Math.floor(Math.log10(postingCount / FIRST_TIER_POSTINGS)) + 1;
}

/**
 * Merges, tier by tier from the smallest, every tier that holds SEGMENTS_PER_TIER segments into
 * one segment of the next tier, dropping the postings of deleted chunks and their tombstones.
 */
async function mergeFullTiers(tx: SqlExecutor, workspaceId: string): Promise<void> {
  for (;;) {
    const listed = await tx.query<{ id: number; posting_count: number }>(
      'SELECT id, posting_count FROM rag_lexical_segments WHERE workspace_id = $1 ORDER BY id',
      [workspaceId],
    );
    const tiers = new Map<number, number[]>();
    for (const row of listed.rows) {
      const tier = tierOf(row.posting_count);
      tiers.set(tier, [...(tiers.get(tier) ?? []), row.id]);
    }
    const full = [...tiers]
      .filter(([, ids]) => ids.length >= SEGMENTS_PER_TIER)
      .sort(([one], [other]) => one - other);
    if (full.length === 0) return;
    await mergeSegments(tx, workspaceId, full[0]![1]);
  }
}

/**
 * Replaces the given segments by one holding their live postings (chunks without a tombstone);
 * the tombstones of the chunks they held go with them. Also the way to purge deletions: merging
 * one segment rewrites it without its deleted chunks.
 */
export async function mergeSegments(
  tx: SqlExecutor,
  workspaceId: string,
  ids: readonly number[],
): Promise<void> {
  if (ids.length === 0) return;
  const read = await tx.query<{ postings: Uint8Array }>(
    'DELETE FROM rag_lexical_segments WHERE workspace_id = $1 AND id = ANY($2::bigint[]) RETURNING postings',
    [workspaceId, ids],
  );
  const segments = read.rows.map((row) => new DecodedSegment(row.postings));
  const held = segments.flatMap((segment) => [...segment.chunkIds]);
  const deleted = await tx.query<{ chunk_id: number }>(
    'DELETE FROM rag_lexical_tombstones WHERE workspace_id = $1 AND chunk_id = ANY($2::bigint[]) RETURNING chunk_id',
    [workspaceId, held],
  );
  const gone = new Set(deleted.rows.map((row) => Number(row.chunk_id)));
  const chunks: Array<{ id: number; length: number }> = [];
  const terms = new Map<string, Posting[]>();
  let postingCount = 0;
  for (const segment of segments) {
    segment.chunkIds.forEach((id, index) => {
      if (!gone.has(id)) chunks.push({ id, length: segment.lengths[index]! });
    });
    for (const lexeme of segment.lexemes()) {
      const postings = segment.postings(lexeme)!;
      let list = terms.get(lexeme);
      for (let index = 0; index < postings.positions.length; index++) {
        const chunkId = segment.chunkIds[postings.positions[index]!]!;
        if (gone.has(chunkId)) continue;
        if (!list) terms.set(lexeme, (list = []));
        list.push({
          chunkId,
          tf: postings.tf[index]!,
          tfHeading: postings.tfHeading[index]!,
          tfTitle: postings.tfTitle[index]!,
        });
        postingCount++;
      }
    }
  }
  if (chunks.length > 0) await insertSegment(tx, workspaceId, { chunks, terms, postingCount });
}

/**
 * Builds the segments of a workspace written before segments existed (lexical_segments false),
 * from its chunks, and marks it complete. Writers wait for the few seconds it takes (the chunks
 * are locked in SHARE mode): afterwards every chunk is in exactly one segment.
 */
export async function backfillLexicalSegments(sql: Sql, workspaceId: string): Promise<boolean> {
  return sql.transaction(async (tx) => {
    await tx.query('LOCK TABLE rag_chunks IN SHARE MODE');
    const flag = await tx.query<{ lexical_segments: boolean }>(
      'SELECT lexical_segments FROM rag_workspaces WHERE id = $1 FOR UPDATE',
      [workspaceId],
    );
    if (flag.rows[0]?.lexical_segments !== false) return false;
    await tx.query('DELETE FROM rag_lexical_segments WHERE workspace_id = $1', [workspaceId]);
    await tx.query('DELETE FROM rag_lexical_tombstones WHERE workspace_id = $1', [workspaceId]);
    // The chunks' postings as insert-chunks.sql computes them, from each chunk's tsvector and its
    // document's title.
    const columns = await tx.query<PostingColumns>(
      `SELECT f.lexeme,
              array_agg(c.id::float8 ORDER BY c.id) AS chunk_ids,
              array_agg(c.lexeme_count ORDER BY c.id) AS lengths,
              array_agg(f.tf ORDER BY c.id) AS tf,
              array_agg(f.tf_heading ORDER BY c.id) AS tf_heading,
              array_agg(f.tf_title ORDER BY c.id) AS tf_title
       FROM rag_chunks c
       JOIN rag_documents d ON d.id = c.document_id
       CROSS JOIN LATERAL rag_chunk_fields(d.title, c.tsv) AS f
       WHERE c.workspace_id = $1
       GROUP BY f.lexeme`,
      [workspaceId],
    );
    await writeSegment(tx, workspaceId, columns.rows);
    await tx.query('UPDATE rag_workspaces SET lexical_segments = true WHERE id = $1', [workspaceId]);
    return true;
  });
}

/** Workspaces whose chunks are not all in segments yet (written before segments existed). */
export async function workspacesWithoutSegments(sql: Sql): Promise<string[]> {
  const result = await sql.query<{ id: string }>(
    'SELECT id FROM rag_workspaces WHERE NOT lexical_segments ORDER BY id',
  );
  return result.rows.map((row) => row.id);
}
