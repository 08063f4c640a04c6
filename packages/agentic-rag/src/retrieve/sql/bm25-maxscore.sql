-- BM25 with MaxScore pruning (Turtle & Flood, 1995). The rarer ("essential") query terms find the
-- candidates and their partial scores; the common terms' postings, the long ones, are read only
-- for candidates whose partial score plus $8 (the most the common terms can add to any chunk)
-- still reaches a lower bound of the $7-th best score: the $7-th best partial score, or $10 (a
-- real score known from an earlier round) when that is higher. The caller checks that the result
-- is provably the exact top $7; otherwise it runs the full query.
WITH q AS (
  SELECT * FROM unnest($2::text[], $3::float8[], $9::bool[]) AS q(lexeme, weight, essential)
),
partial AS (
  SELECT p.chunk_id,
         sum(q.weight * p.tf * ($4::float8 + 1)
             / (p.tf + $4::float8 * (1 - $5::float8 + $5::float8 * p.chunk_length / $6::float8))) AS score
  FROM q JOIN rag_chunk_terms p ON p.workspace_id = $1 AND p.lexeme = q.lexeme
  WHERE q.essential
  GROUP BY p.chunk_id
),
threshold AS (
  SELECT greatest(coalesce(min(score), 0), $10::float8) AS theta
  FROM (SELECT score FROM partial ORDER BY score DESC LIMIT $7) AS top
),
survivors AS (
  SELECT partial.chunk_id, partial.score FROM partial, threshold WHERE partial.score + $8::float8 >= threshold.theta
)
SELECT s.chunk_id AS id, s.score + coalesce(extra.score, 0) AS score
FROM survivors AS s
LEFT JOIN LATERAL (
  SELECT sum(q.weight * p.tf * ($4::float8 + 1)
             / (p.tf + $4::float8 * (1 - $5::float8 + $5::float8 * p.chunk_length / $6::float8))) AS score
  FROM q JOIN rag_chunk_terms p ON p.workspace_id = $1 AND p.lexeme = q.lexeme AND p.chunk_id = s.chunk_id
  WHERE NOT q.essential
) AS extra ON true
ORDER BY score DESC, id
LIMIT $7
