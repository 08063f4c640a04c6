import type { Sql } from '../db/index.js';
import { byScore, OperationJudge, product } from '../operations/index.js';
import type { Understanding } from '../understand/index.js';
import type { RetrievalFilters } from './filters.js';
import { interleave } from './interleave.js';
import type { RetrievalHit, Searched } from './types.js';

/**
 * API questions are operation retrieval. Two opinions on which operation is meant are combined:
 * the operation ranking (the understanding's BM25F over each operation's fields) and the chunk
 * search over operation documents (its exact words and dense similarity over everything the
 * operation's text says), each on its own scale (its best is 1), weighted and summed; then the
 * question's judgement of each operation — does it do the asked action, act on the named target,
 * is it deprecated — multiplies whatever either opinion found. The result holds one hit per
 * operation (its best chunk; its other chunks are context, not more hits) and the prose the broad
 * search found (a guide, a runbook) after the first operation, never schemas or error sets, which
 * the question did not ask for.
 */

/** How much the field ranking and the chunk search count (set on the dev specs). */
export const FIELD_WEIGHT = 2;
export const SEARCH_WEIGHT = 1;

/** Document kinds an operation question never lists: shapes, error sets and a spec's overview are asked for as such. */
const NOT_ASKED = new Set(['endpoint', 'schema', 'errors', 'overview']);

export interface OperationSearchOptions {
  sql: Sql;
  workspaceId: string;
  understanding: Understanding;
  /** The caller's filters: the field ranking keeps only operations they allow. */
  filters: RetrievalFilters;
  k: number;
  /** The chunk search narrowed to operation documents. */
  focused: () => Promise<Searched>;
  /** The chunk search under the caller's filters alone. */
  broad: () => Promise<Searched>;
  hydrate: (
    ids: readonly number[],
  ) => Promise<Map<number, Omit<RetrievalHit, 'score' | 'fusedScore' | 'channels'>>>;
}

/**
 * Whether the caller's filters allow an operation the field ranking found: a source prefix is
 * checked on its path, the kind is `openapi`; any filter on chunk metadata (a chapter, a page)
 * leaves the field ranking out, and the chunk search, which applies it, decides alone.
 */
function passes(sourcePath: string, filters: RetrievalFilters): boolean {
  for (const [key, value] of Object.entries(filters)) {
    if (value === undefined) continue;
    if (key === 'sourcePrefix') {
      if (!sourcePath.startsWith(String(value))) return false;
    } else if (key === 'kind') {
      if (value !== 'openapi') return false;
    } else return false;
  }
  return true;
}

const FIRST_CHUNKS = `
  SELECT DISTINCT ON (d.source_path) d.source_path, c.id
    FROM rag_documents d JOIN rag_chunks c ON c.document_id = d.id
   WHERE d.workspace_id = $1 AND d.source_path = ANY($2::text[])
   ORDER BY d.source_path, c.start_offset, c.id`;

/** The operations ranked, then the prose; null when no operation passes the caller's filters. */
export async function operationSearch(options: OperationSearchOptions): Promise<Searched | null> {
  const { understanding, k } = options;
  const broad = options.broad();
  broad.catch(() => undefined);
  const focused = await options.focused();

  const allowed = understanding.operations.filter((ranked) =>
    passes(ranked.operation.sourcePath, options.filters),
  );
  const byFields = new Map(
    allowed.map((ranked, index) => [ranked.operation.sourcePath, { ranked, rank: index + 1 }]),
  );
  const bestChunk = new Map<string, RetrievalHit>();
  const bySearch = new Map<string, { score: number; rank: number }>();
  for (const hit of focused.hits) {
    if (bestChunk.has(hit.sourcePath)) continue;
    bestChunk.set(hit.sourcePath, hit);
    bySearch.set(hit.sourcePath, { score: hit.score, rank: bySearch.size + 1 });
  }
  const maxFields = Math.max(1e-9, ...allowed.map((ranked) => ranked.explain.fields));
  const maxSearch = Math.max(1e-9, ...[...bySearch.values()].map((entry) => entry.score));
  const search = understanding.operationSearch;
  const judge = search ? new OperationJudge(search.index, search.query) : null;
  const catalogue = new Map(
    search?.index.operations.map((operation) => [operation.sourcePath, operation]) ?? [],
  );
  const fused = [...new Set([...byFields.keys(), ...bySearch.keys()])]
    .flatMap((sourcePath) => {
      const operation = byFields.get(sourcePath)?.ranked.operation ?? catalogue.get(sourcePath);
      if (!operation) return [];
      const fields = byFields.get(sourcePath);
      const searched = bySearch.get(sourcePath);
      const factors = judge ? judge.factors(operation) : { action: 1, target: 1, deprecated: 1 };
      const words =
        FIELD_WEIGHT * ((fields?.ranked.explain.fields ?? 0) / maxFields) +
        SEARCH_WEIGHT * (Math.max(0, searched?.score ?? 0) / maxSearch);
      return [
        {
          sourcePath,
          operation,
          score: words * product(factors),
          fieldRank: fields?.rank ?? null,
          searchRank: searched?.rank ?? null,
          factors,
        },
      ];
    })
    .sort(byScore)
    .slice(0, k);

  // An operation the fields ranked but the chunk search did not reach is shown by its first chunk.
  const missing = fused.filter((entry) => !bestChunk.has(entry.sourcePath)).map((entry) => entry.sourcePath);
  if (missing.length > 0) {
    const first = await options.sql.query<{ source_path: string; id: number }>(FIRST_CHUNKS, [
      options.workspaceId,
      missing,
    ]);
    const rows = await options.hydrate(first.rows.map((row) => Number(row.id)));
    for (const row of rows.values())
      bestChunk.set(row.sourcePath, { ...row, score: 0, fusedScore: 0, channels: {} });
  }
  const hits: RetrievalHit[] = [];
  for (const entry of fused) {
    const hit = bestChunk.get(entry.sourcePath);
    if (!hit) continue;
    const score = Number(entry.score.toFixed(6));
    hits.push({
      ...hit,
      score,
      operation: {
        fieldRank: entry.fieldRank,
        searchRank: entry.searchRank,
        score,
        factors: { ...entry.factors },
      },
    });
  }
  if (hits.length === 0) return null;
  const prose = await broad;
  const asked = (hit: RetrievalHit) =>
    !NOT_ASKED.has(String(hit.metadata.chunk_type ?? hit.documentMetadata?.chunk_type ?? ''));
  return interleave({ ...focused, hits }, { ...prose, hits: prose.hits.filter(asked) }, k);
}
