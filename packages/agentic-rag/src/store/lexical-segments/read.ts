import type { SqlExecutor } from '../../db/index.js';
import { ErrorCode, RagError } from '../../errors/index.js';
import { DecodedSegment } from './codec.js';

/** What lexical search needs of a workspace, read in one snapshot. */
export interface LexicalIndexView {
  /** The workspace's corpus version the view was read at. */
  version: number;
  /** Chunks in the workspace and their total length in lexemes (BM25's N and Σ|c|). */
  chunkCount: number;
  lexemeTotal: number;
  segments: readonly DecodedSegment[];
  /** Chunks deleted since their segment was written. */
  tombstones: ReadonlySet<number>;
}

/** Encoded bytes of segments kept decoded per process; the least recently used go first. */
const DEFAULT_BUDGET_BYTES = 512 * 1024 * 1024;

/** Filtered chunk sets kept (see subset). */
const MAX_SUBSETS = 64;

/** A merge that removes a segment between the two reads of `open` makes it read again. */
const ATTEMPTS = 3;

/**
 * Decoded segments by id for this process. Segments never change, so an entry is never stale; a
 * workspace's list of segments and its tombstones are read with its statistics in one statement
 * (one snapshot), and the tombstones only when the corpus version or the list has moved.
 */
export class LexicalSegmentCache {
  private readonly segments = new Map<number, DecodedSegment>();
  private bytes = 0;
  private readonly views = new Map<
    string,
    { version: number; segmentIds: number[]; tombstones: Set<number> }
  >();

  private readonly subsets = new Map<string, ReadonlySet<number>>();

  constructor(private readonly budgetBytes = DEFAULT_BUDGET_BYTES) {}

  /**
   * The chunks a filtered search may return, read by `read` once per corpus version and filter
   * (`key`), so a filtered search scores the segments too instead of joining every posting to
   * its chunk and document.
   */
  async subset(
    view: LexicalIndexView,
    workspaceId: string,
    key: string,
    read: () => Promise<readonly number[]>,
  ): Promise<ReadonlySet<number>> {
    const cacheKey = JSON.stringify([workspaceId, view.version, key]);
    const cached = this.subsets.get(cacheKey);
    if (cached) return cached;
    const ids = new Set(await read());
    this.subsets.set(cacheKey, ids);
    // The most recent filters only: an entry for an older version is never asked for again.
    for (const oldest of this.subsets.keys()) {
      if (this.subsets.size <= MAX_SUBSETS) break;
      this.subsets.delete(oldest);
    }
    return ids;
  }

  async open(sql: SqlExecutor, workspaceId: string): Promise<LexicalIndexView> {
    for (let attempt = 1; ; attempt++) {
      const known = this.views.get(workspaceId);
      const result = await sql.query<{
        chunk_count: number;
        lexeme_total: number;
        corpus_version: number;
        lexical_segments: boolean;
        segment_ids: number[];
        tombstones: number[] | null;
      }>(
        `WITH listed AS (
           SELECT ARRAY(SELECT s.id::float8 FROM rag_lexical_segments s WHERE s.workspace_id = $1 ORDER BY s.id) AS ids
         )
         SELECT w.chunk_count, w.lexeme_total, w.corpus_version, w.lexical_segments, listed.ids AS segment_ids,
                CASE WHEN w.corpus_version IS DISTINCT FROM $2::bigint OR listed.ids IS DISTINCT FROM $3::float8[]
                     THEN ARRAY(SELECT t.chunk_id::float8 FROM rag_lexical_tombstones t WHERE t.workspace_id = $1)
                END AS tombstones
         FROM rag_workspaces w, listed
         WHERE w.id = $1`,
        [workspaceId, known?.version ?? null, known?.segmentIds ?? null],
      );
      const row = result.rows[0];
      if (!row) return { version: 0, chunkCount: 0, lexemeTotal: 0, segments: [], tombstones: new Set() };
      // Only between the migration that brought segments and the start-up that builds them from
      // the chunks (CorpusStore.completeLexicalSegments), which every process runs before serving.
      if (!row.lexical_segments)
        throw new RagError(
          ErrorCode.STORE_UNAVAILABLE,
          `the lexical index of workspace ${workspaceId} is still being built from its chunks; retry shortly`,
        );
      const segmentIds = row.segment_ids.map(Number);
      const tombstones = row.tombstones ? new Set(row.tombstones.map(Number)) : known!.tombstones;
      this.views.set(workspaceId, { version: Number(row.corpus_version), segmentIds, tombstones });
      const segments = await this.load(sql, workspaceId, segmentIds);
      if (segments) {
        return {
          version: Number(row.corpus_version),
          chunkCount: Number(row.chunk_count),
          lexemeTotal: Number(row.lexeme_total),
          segments,
          tombstones,
        };
      }
      // A merge replaced a listed segment between the two statements: read the list again.
      this.views.delete(workspaceId);
      if (attempt >= ATTEMPTS)
        throw new RagError(
          ErrorCode.TRANSACTION_CONFLICT,
          `the lexical segments of workspace ${workspaceId} were merged while being read ${ATTEMPTS} times; retry`,
        );
    }
  }

  /** The segments by id, reading the ones not cached; undefined when one is gone (merged away). */
  private async load(
    sql: SqlExecutor,
    workspaceId: string,
    ids: readonly number[],
  ): Promise<DecodedSegment[] | undefined> {
    const missing = ids.filter((id) => !this.segments.has(id));
    const fresh = new Map<number, DecodedSegment>();
    if (missing.length > 0) {
      const read = await sql.query<{ id: number; postings: Uint8Array }>(
        'SELECT id, postings FROM rag_lexical_segments WHERE workspace_id = $1 AND id = ANY($2::bigint[])',
        [workspaceId, missing],
      );
      if (read.rows.length !== missing.length) return undefined;
      for (const row of read.rows) fresh.set(Number(row.id), new DecodedSegment(row.postings));
    }
    // Held here before the cache may evict any of them for the budget.
    const opened = ids.map((id) => fresh.get(id) ?? this.touch(id));
    for (const [id, segment] of fresh) this.remember(id, segment);
    return opened;
  }

  private remember(id: number, segment: DecodedSegment): void {
    this.segments.set(id, segment);
    this.bytes += segment.byteLength;
    // Least recently used first in a Map's order (touch moves an entry to the end).
    for (const [oldest, kept] of this.segments) {
      if (this.bytes <= this.budgetBytes || oldest === id) break;
      this.segments.delete(oldest);
      this.bytes -= kept.byteLength;
    }
  }

  private touch(id: number): DecodedSegment {
    const segment = this.segments.get(id)!;
    this.segments.delete(id);
    this.segments.set(id, segment);
    return segment;
  }
}
