-- Exact BM25F over the chunks of some ranges of chunk ids: the best $7 chunks whose ids fall in
-- one of the ranges starting at $11 (each $10 ids long) or, when $13, at or above $12 (the
-- unsummarised tail). Each (range, term) pair is one short scan of the postings' primary key.
-- $1..$9 as in the full statement: workspace, lexemes, weights, k1, b, average length, limit,
-- heading and title field weights.
WITH spans AS (
  SELECT s.low, s.low + $10::bigint - 1 AS high FROM unnest($11::bigint[]) AS s(low)
  UNION ALL
  SELECT $12::bigint, 9223372036854775807 WHERE $13::bool
)
-- Scores are rounded to 1e-9 as in every BM25 statement, so ties break by id whatever the order
-- of the sum.
SELECT p.chunk_id AS id,
       round(sum(q.weight * (p.tf + $8::float8 * p.tf_heading + $9::float8 * p.tf_title) * ($4::float8 + 1)
                 / ((p.tf + $8::float8 * p.tf_heading + $9::float8 * p.tf_title) + $4::float8 * (1 - $5::float8 + $5::float8 * p.chunk_length / $6::float8))) * 1e9::float8)
         / 1e9::float8 AS score
FROM spans
CROSS JOIN unnest($2::text[], $3::float8[]) AS q(lexeme, weight)
-- OFFSET 0 keeps the lateral subquery a probe per (range, term): flattened, the planner (which
-- underestimates a common lexeme's postings) reads all of each term's postings and filters them.
CROSS JOIN LATERAL (
  SELECT t.chunk_id, t.tf, t.tf_heading, t.tf_title, t.chunk_length
  FROM rag_chunk_terms t
  WHERE t.workspace_id = $1 AND t.lexeme = q.lexeme AND t.chunk_id BETWEEN spans.low AND spans.high
  OFFSET 0
) AS p
WHERE (p.tf + $8::float8 * p.tf_heading + $9::float8 * p.tf_title) > 0
GROUP BY p.chunk_id
ORDER BY score DESC, id
LIMIT $7
