import type { Sql } from '../db/index.js';
import { apiOperations } from './api-vocabulary.js';
import type { RetrievalFilters } from './filters.js';
import { detectAction, type QueryIntent } from './intent.js';
import { matchOperations, type OperationMatch } from './operation-match.js';
import type { RetrievalHit } from './retriever.js';

/**
 * API questions in any wording. The wording alone (intent.ts) knows an API question only when it
 * says "endpoint" or "which call"; here the workspace's own specs decide: a question that asks to
 * do something (a verb, "how do I ...") to a thing the specs name ("get rid of a returns centre")
 * is an API question too, and its operations are ranked by how well they match it.
 */

export interface ApiQuestion {
  intent: QueryIntent;
  /** The operations ranked for the question; null when it is not an API question here. */
  match: OperationMatch | null;
}

/**
 * Settles a question's intent against the workspace's API operations. Errors and schemas keep
 * their own narrowing, a caller's chunk_type filter is never overridden, and a workspace with no
 * spec costs one small query.
 */
export async function apiQuestion(
  sql: Sql,
  workspaceId: string,
  query: string,
  intent: QueryIntent,
  filters: RetrievalFilters,
): Promise<ApiQuestion> {
  if (filters.chunk_type !== undefined || (intent.kind !== 'endpoint' && intent.kind !== 'general')) {
    return { intent, match: null };
  }
  const operations = await apiOperations(sql, workspaceId);
  if (operations.length === 0) return { intent, match: null };
  const action = detectAction(query);
  const match = matchOperations(operations, query, action);
  if (intent.kind === 'endpoint') return { intent, match };
  if (!match.aboutApi) return { intent, match: null };
  return {
    intent: { kind: 'endpoint', ...(action.operationType ? { operationType: action.operationType } : {}) },
    match,
  };
}

/** How far the operation match leads over the search's own order (reciprocal-rank weights). */
const MATCH_WEIGHT = 3;
const SEARCH_WEIGHT = 1;
const RANK_OFFSET = 1;

/**
 * The narrowed (operation) hits in the order of two opinions fused by reciprocal rank: the
 * operation match (what the question asks to do, to what) and the search (its exact words:
 * "ZPL", "timezone"). Chunks of one operation stay together in the search's order; k kept.
 */
export function rankHitsByOperations(
  hits: readonly RetrievalHit[],
  match: OperationMatch,
  k: number,
): RetrievalHit[] {
  const matchRank = new Map(match.ranked.map((scored, index) => [scored.operation.sourcePath, index + 1]));
  const searchRank = new Map<string, number>();
  for (const hit of hits)
    if (!searchRank.has(hit.sourcePath)) searchRank.set(hit.sourcePath, searchRank.size + 1);
  const fused = (sourcePath: string) => {
    const byMatch = matchRank.get(sourcePath);
    return (
      (byMatch === undefined ? 0 : MATCH_WEIGHT / (RANK_OFFSET + byMatch)) +
      SEARCH_WEIGHT / (RANK_OFFSET + searchRank.get(sourcePath)!)
    );
  };
  return hits
    .map((hit, index) => ({ hit, index, score: fused(hit.sourcePath) }))
    .sort((left, right) => right.score - left.score || left.index - right.index)
    .slice(0, k)
    .map(({ hit }) => hit);
}
