import type { ChunkReader, ChunkRecord } from '../store/index.js';
import { silentLogger, type Logger } from '../telemetry/index.js';
import type { RetrievalHit } from './types.js';

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

/**
 * Follows `ref_ids` (an OpenAPI operation → the schemas it uses → the schemas they use) breadth
 * first from the primary hits' documents: one batched query per level, a visited set so cycles
 * end, nearest references first, within a chunk budget and a deadline. A reference to a document
 * that is not stored (deleted, or a dangling $ref) is logged and skipped.
 */
export async function expandReferences(
  chunks: ChunkReader,
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
    chunks,
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
    const rows = await lookUp(chunks, workspaceId, targets, settings.batch ?? true);
    lookups += rows.lookups;
    const found = new Set(rows.rows.map((row) => row.sourcePath));
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
        via.get(left.sourcePath)!.rank - via.get(right.sourcePath)!.rank ||
        fanIn(left) - fanIn(right) ||
        targets.indexOf(left.sourcePath) - targets.indexOf(right.sourcePath) ||
        left.chunkIndex - right.chunkIndex,
    );
    const next: Frontier[] = [];
    for (const row of ordered) {
      if (!seenChunks.has(row.chunkId)) {
        if (references.length >= settings.maxChunks) {
          limitsHit.add('reference_budget');
        } else {
          seenChunks.add(row.chunkId);
          const { from, rank } = via.get(row.sourcePath)!;
          const score = Math.max(0, primary[rank]!.score) * REFERENCE_SCORE_DECAY ** level;
          references.push(toReferenceHit(row, level, from, score));
          depth = level;
        }
      }
      const rank = via.get(row.sourcePath)!.rank;
      for (const target of refIds(row.documentMetadata.ref_ids, logger, row.sourcePath))
        next.push({ target, from: row.sourcePath, rank });
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
  chunks: ChunkReader,
  workspaceId: string,
  targets: string[],
  batch: boolean,
): Promise<{ rows: ChunkRecord[]; lookups: number }> {
  if (batch) return { rows: await chunks.ofDocuments(workspaceId, targets), lookups: 1 };
  const rows: ChunkRecord[] = [];
  for (const target of targets) rows.push(...(await chunks.ofDocuments(workspaceId, [target])));
  return { rows, lookups: targets.length };
}

/**
 * How many documents reference this chunk's document: a shared Error schema is referenced by
 * every operation and tells little about any of them.
 */
function fanIn(chunk: ChunkRecord): number {
  const referencedBy = chunk.documentMetadata.referenced_by;
  return Array.isArray(referencedBy) ? referencedBy.length : 0;
}

async function refIdsOf(
  chunks: ChunkReader,
  documentIds: number[],
  sourcePaths: Map<number, string>,
  ranks: Map<number, number>,
  logger: Logger,
): Promise<Frontier[]> {
  const metadata = await chunks.documentMetadata(documentIds);
  return documentIds.flatMap((id) =>
    metadata.has(id)
      ? refIds(metadata.get(id)!.ref_ids, logger, sourcePaths.get(id)!).map((target) => ({
          target,
          from: sourcePaths.get(id)!,
          rank: ranks.get(id)!,
        }))
      : [],
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

function toReferenceHit(chunk: ChunkRecord, depth: number, from: string, score: number): ReferenceHit {
  // A reference shows the chunk, not its document's metadata (the search hits' knowledge types).
  const { chunkIndex, documentMetadata, ...display } = chunk;
  return {
    ...display,
    // A reference is in the context because of where it points from: its score is inherited.
    score,
    fusedScore: score,
    channels: {},
    reference: { depth, from },
  };
}
