import type { Sql } from '../db/index.js';
import { loadSqlFile } from '../db/index.js';
import { silentLogger, type Logger } from '../telemetry/index.js';
import type { RetrievalHit } from './types.js';

const REFERENCED_DOCUMENTS = loadSqlFile(new URL('./sql/referenced-documents.sql', import.meta.url));

export interface ReferenceSettings {
  /** Breadth-first levels of `ref_ids` to follow (RETRIEVAL_MAX_DEPTH). */
  maxDepth: number;
  /** Most reference chunks to collect (the reference share of RETRIEVAL_MAX_TOTAL_CHUNKS). */
  maxChunks: number;
  /** Wall-clock budget (RETRIEVAL_TIMEOUT_MS); past it the expansion stops and says so. */
  timeoutMs: number;
  /**
   * One query for all the documents of a level (BATCH_REFERENCE_LOOKUP, the default), or one per
   * document: same result, more round trips; kept for databases where a long IN list plans badly.
   */
  batch?: boolean;
}

/**
 * What a reference counts for beside the hits, when the context is ordered by score alone
 * (CONTEXT_PRIORITIZE_PRIMARY=false): the score of the primary hit its path started from, halved
 * per level, so a direct dependency of the best hit can outrank a weak hit, a distant one cannot.
 */
export const REFERENCE_SCORE_DECAY = 0.5;

/** A chunk reached by following references, with the path that reached it. */
export interface ReferenceHit extends RetrievalHit {
  reference: {
    /** 1 for a document a primary hit's document references directly. */
    depth: number;
    /** The source path of the document whose ref_ids named this one. */
    from: string;
  };
}

export interface ReferenceExpansion {
  references: ReferenceHit[];
  stats: {
    /** Deepest level that contributed. */
    depth: number;
    /** Documents looked at (primary ones included). */
    visited: number;
    /** Referenced ids that name no stored document: logged and skipped. */
    missing: string[];
    /** References to documents already visited (cycles, shared schemas): skipped, counted. */
    revisited: number;
    /** Lookups sent to the database (one per level when batched, one per document when not). */
    lookups: number;
    /** True when the timeout stopped the expansion early. */
    partial: boolean;
    /** Why it stopped short: 'reference_budget', 'timeout'. */
    limitsHit: string[];
    ms: number;
  };
}

type ReferencedRow = {
  id: number;
  chunk_id: string;
  text: string;
  token_count: number;
  start_offset: number;
  end_offset: number;
  section_path: string;
  metadata: Record<string, unknown>;
  document_id: number;
  source_path: string;
  source_kind: string;
  title: string | null;
  url: string | null;
  chunk_index: number;
  ref_ids: unknown;
  fan_in: number;
};

/**
 * Follows `ref_ids` (an OpenAPI operation → the schemas it uses → the schemas they use) breadth
 * first from the primary hits' documents: one batched query per level, a visited set so cycles
 * end, nearest references first, within a chunk budget and a deadline. A reference to a document
 * that is not stored (deleted, or a dangling $ref) is logged and skipped.
 */
export async function expandReferences(
  sql: Sql,
  workspaceId: string,
  primary: readonly RetrievalHit[],
  settings: ReferenceSettings,
  logger: Logger = silentLogger,
): Promise<ReferenceExpansion> {
  const started = performance.now();
  const references: ReferenceHit[] = [];
  const missing: string[] = [];
  let revisited = 0;
  let lookups = 0;
  const limitsHit = new Set<string>();
  const seenChunks = new Set(primary.map((hit) => hit.chunkId));
  const visited = new Set(primary.map((hit) => hit.sourcePath));
  let depth = 0;
  let partial = false;

  // Level 0: the primary documents' own ref_ids, in rank order.
  const ranks = new Map<number, number>();
  primary.forEach((hit, rank) => {
    if (!ranks.has(hit.documentId)) ranks.set(hit.documentId, rank);
  });
  let frontier = await refIdsOf(
    sql,
    [...ranks.keys()],
    new Map(primary.map((hit) => [hit.documentId, hit.sourcePath])),
    ranks,
    logger,
  );
  for (let level = 1; level <= settings.maxDepth && frontier.length > 0; level++) {
    if (references.length >= settings.maxChunks) {
      limitsHit.add('reference_budget');
      break;
    }
    if (performance.now() - started > settings.timeoutMs) {
      partial = true;
      limitsHit.add('timeout');
      break;
    }
    const wanted = frontier.filter(({ target }) => !visited.has(target));
    const again = new Set(frontier.filter(({ target }) => visited.has(target)).map(({ target }) => target))
      .size;
    if (again > 0) {
      revisited += again;
      logger.debug('references revisited', {
        event: 'reference-revisited',
        workspaceId,
        level,
        count: again,
      });
    }
    const targets = [...new Set(wanted.map(({ target }) => target))];
    for (const target of targets) visited.add(target);
    if (targets.length === 0) break;
    const rows = await lookUp(sql, workspaceId, targets, settings.batch ?? true);
    lookups += rows.lookups;
    const found = new Set(rows.rows.map((row) => row.source_path));
    for (const target of targets) {
      if (found.has(target)) continue;
      missing.push(target);
      logger.warn('missing reference', { event: 'reference-missing', workspaceId, target });
    }
    // The first (best-ranked) referrer names the path; within a level, references of better
    // primary hits come first, and of those the more specific ones (fewer referrers).
    const via = new Map<string, { from: string; rank: number }>();
    for (const { target, from, rank } of wanted) if (!via.has(target)) via.set(target, { from, rank });
    const ordered = [...rows.rows].sort(
      (left, right) =>
        via.get(left.source_path)!.rank - via.get(right.source_path)!.rank ||
        left.fan_in - right.fan_in ||
        targets.indexOf(left.source_path) - targets.indexOf(right.source_path) ||
        left.chunk_index - right.chunk_index,
    );
    const next: Frontier[] = [];
    for (const row of ordered) {
      if (!seenChunks.has(row.chunk_id)) {
        if (references.length >= settings.maxChunks) {
          limitsHit.add('reference_budget');
        } else {
          seenChunks.add(row.chunk_id);
          const { from, rank } = via.get(row.source_path)!;
          const score = Math.max(0, primary[rank]!.score) * REFERENCE_SCORE_DECAY ** level;
          references.push(toReferenceHit(row, level, from, score));
          depth = level;
        }
      }
      const rank = via.get(row.source_path)!.rank;
      for (const target of refIds(row.ref_ids, logger, row.source_path))
        next.push({ target, from: row.source_path, rank });
    }
    frontier = next;
  }
  return {
    references,
    stats: {
      depth,
      visited: visited.size,
      missing,
      revisited,
      lookups,
      partial,
      limitsHit: [...limitsHit],
      ms: Number((performance.now() - started).toFixed(2)),
    },
  };
}

/** A document to visit, who named it, and the rank of the primary hit the path started from. */
interface Frontier {
  target: string;
  from: string;
  rank: number;
}

/** The chunks of the documents at `targets`, in that order: one query, or one per document. */
async function lookUp(
  sql: Sql,
  workspaceId: string,
  targets: string[],
  batch: boolean,
): Promise<{ rows: ReferencedRow[]; lookups: number }> {
  if (batch) {
    const result = await sql.query<ReferencedRow>(REFERENCED_DOCUMENTS, [workspaceId, targets]);
    return { rows: result.rows, lookups: 1 };
  }
  const rows: ReferencedRow[] = [];
  for (const target of targets) {
    rows.push(...(await sql.query<ReferencedRow>(REFERENCED_DOCUMENTS, [workspaceId, [target]])).rows);
  }
  return { rows, lookups: targets.length };
}

async function refIdsOf(
  sql: Sql,
  documentIds: number[],
  sourcePaths: Map<number, string>,
  ranks: Map<number, number>,
  logger: Logger,
): Promise<Frontier[]> {
  if (documentIds.length === 0) return [];
  const result = await sql.query<{ id: number; ref_ids: unknown }>(
    `SELECT d.id, d.metadata -> 'ref_ids' AS ref_ids
     FROM unnest($1::bigint[]) WITH ORDINALITY AS k(id, position)
     JOIN rag_documents d ON d.id = k.id
     ORDER BY k.position`,
    [documentIds],
  );
  return result.rows.flatMap((row) =>
    refIds(row.ref_ids, logger, sourcePaths.get(row.id)!).map((target) => ({
      target,
      from: sourcePaths.get(row.id)!,
      rank: ranks.get(row.id)!,
    })),
  );
}

/**
 * ref_ids as stored in metadata: a list of ids (what our loaders write), or the design's
 * `{"<id>": [additional context], ...}` object, whose keys are the ids. Anything else is no
 * reference: the document is treated as referencing nothing, and a debug line says so.
 */
function refIds(value: unknown, logger: Logger, sourcePath: string): string[] {
  if (value === null || value === undefined) return [];
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return value;
  if (typeof value === 'object' && !Array.isArray(value)) return Object.keys(value);
  logger.debug('malformed ref_ids', { event: 'reference-malformed', sourcePath });
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

function toReferenceHit(row: ReferencedRow, depth: number, from: string, score: number): ReferenceHit {
  return {
    id: row.id,
    chunkId: row.chunk_id,
    documentId: row.document_id,
    sourcePath: row.source_path,
    kind: row.source_kind,
    title: row.title,
    url: row.url,
    text: row.text,
    tokenCount: row.token_count,
    startOffset: row.start_offset,
    endOffset: row.end_offset,
    sectionPath: row.section_path,
    metadata: row.metadata,
    // A reference is in the context because of where it points from: its score is inherited.
    score,
    fusedScore: score,
    channels: {},
    reference: { depth, from },
  };
}
