-- BM25 with MaxScore pruning (Turtle & Flood, 1995). The rarer ("essential") query terms find the
-- candidates and their partial scores; the common terms' postings, the long ones, are read only
-- for candidates whose partial score plus $10 (the most the common terms can add to any chunk)
-- still reaches a lower bound of the $7-th best score: the $7-th best partial score, or $12 (a
-- real score known from an earlier round) when that is higher. The caller checks that the result
-- is provably the exact top $7; otherwise it runs the full query.
-- A posting's term frequency is BM25F's weighted sum of its fields: body + $8 · heading trail +
-- $9 · document title (the body's length normalises it).
WITH q AS (
  SELECT * FROM unnest($2::text[], $3::float8[], $11::bool[]) AS q(lexeme, weight, essential)
),
partial AS (
  SELECT p.chunk_id,
         sum(q.weight * (p.tf + $8::float8 * p.tf_heading + $9::float8 * p.tf_title) * ($4::float8 + 1)
             / ((p.tf + $8::float8 * p.tf_heading + $9::float8 * p.tf_title) + $4::float8 * (1 - $5::float8 + $5::float8 * p.chunk_length / $6::float8))) AS score
  FROM q JOIN rag_chunk_terms p ON p.workspace_id = $1 AND p.lexeme = q.lexeme
  -- A lexeme only in a field weighted 0 (the title, by default) is not in the chunk for BM25.
  WHERE q.essential AND (p.tf + $8::float8 * p.tf_heading + $9::float8 * p.tf_title) > 0
  GROUP BY p.chunk_id
),
threshold AS (
  SELECT greatest(coalesce(min(score), 0), $12::float8) AS theta
  FROM (SELECT score FROM partial ORDER BY score DESC LIMIT $7) AS top
),
survivors AS (
  SELECT partial.chunk_id, partial.score FROM partial, threshold WHERE partial.score + $10::float8 >= threshold.theta
)
-- Rounded to 1e-9 as in every BM25 statement, so ties break by id whatever the order of the sum.
SELECT s.chunk_id AS id, round((s.score + coalesce(extra.score, 0)) * 1e9::float8) / 1e9::float8 AS score
FROM survivors AS s
LEFT JOIN LATERAL (
  SELECT sum(q.weight * (p.tf + $8::float8 * p.tf_heading + $9::float8 * p.tf_title) * ($4::float8 + 1)
             / ((p.tf + $8::float8 * p.tf_heading + $9::float8 * p.tf_title) + $4::float8 * (1 - $5::float8 + $5::float8 * p.chunk_length / $6::float8))) AS score
  FROM q JOIN rag_chunk_terms p ON p.workspace_id = $1 AND p.lexeme = q.lexeme AND p.chunk_id = s.chunk_id
  WHERE NOT q.essential AND (p.tf + $8::float8 * p.tf_heading + $9::float8 * p.tf_title) > 0
) AS extra ON true
ORDER BY score DESC, id
LIMIT $7
