import type { Sql } from '../packages/agentic-rag/src/db/index.js';
import { bm25Idf } from '../packages/agentic-rag/src/retrieve/index.js';
import type { Bm25Options } from '../packages/agentic-rag/src/retrieve/channels.js';
import { filterConditions } from '../packages/agentic-rag/src/retrieve/filters.js';

/** What bm25Channel takes, less the index it searches. */
export type FullScanOptions = Omit<Bm25Options, 'segments'>;

/**
 * BM25F by brute force, in SQL, for tests to hold the lexical index to: every chunk's postings
 * recomputed from its tsvector and its document's title (rag_chunk_fields, the definition the
 * writes use), scored with the statistics the workspace maintains, summed by Postgres in its own
 * order and rounded to the 1e-9 grid, ranked by score then id.
 */
export async function fullScanBm25(
  sql: Sql,
  options: FullScanOptions,
): Promise<{ ids: number[]; scores: number[] }> {
  const statistics = await sql.query<{ chunk_count: number; lexeme_total: number }>(
    'SELECT chunk_count, lexeme_total FROM rag_workspaces WHERE id = $1',
    [options.workspaceId],
  );
  const n = Number(statistics.rows[0]?.chunk_count ?? 0);
  const weighted = options.terms.filter((term) => (options.documentFrequency.get(term.lexeme) ?? 0) > 0);
  if (n === 0 || weighted.length === 0) return { ids: [], scores: [] };
  const averageLength = Number(statistics.rows[0]!.lexeme_total) / n;
  const filters = filterConditions(options.filters, 10);
  const tf = '(f.tf + $8::float8 * f.tf_heading + $9::float8 * f.tf_title)';
  const result = await sql.query<{ id: number; score: number }>(
    `SELECT c.id,
            round(sum(q.weight * ${tf} * ($4::float8 + 1)
                      / (${tf} + $4::float8 * (1 - $5::float8 + $5::float8 * c.lexeme_count / $6::float8))) * 1e9::float8)
              / 1e9::float8 AS score
     FROM rag_chunks c
     JOIN rag_documents d ON d.id = c.document_id
     CROSS JOIN LATERAL rag_chunk_fields(d.title, c.tsv) AS f
     JOIN unnest($2::text[], $3::float8[]) AS q(lexeme, weight) ON q.lexeme = f.lexeme
     WHERE c.workspace_id = $1 AND ${tf} > 0${filters.sql}
     GROUP BY c.id
     ORDER BY score DESC, c.id
     LIMIT $7`,
    [
      options.workspaceId,
      weighted.map((term) => term.lexeme),
      weighted.map((term) => term.count * bm25Idf(n, options.documentFrequency.get(term.lexeme)!)),
      options.k1,
      options.b,
      averageLength,
      options.limit,
      options.fields.heading,
      options.fields.title,
      ...filters.params,
    ],
  );
  return { ids: result.rows.map((row) => Number(row.id)), scores: result.rows.map((row) => row.score) };
}
