-- Block-max bounds: for each summarised range of chunk ids holding a query term, the most BM25F
-- can give any chunk in it, the sum over the query's terms of the term's score at the range's
-- largest field frequencies and shortest chunk (each term's score grows with tf and shrinks with
-- the length, so no chunk of the range scores more). Best bound first.
-- $1 workspace, $2 lexemes, $3 weights (qtf · idf), $4 k1, $5 b, $6 average length,
-- $7 heading and $8 title field weights, $9 the number of summarised ranges (range_no below it).
SELECT b.range_no, sum(b.weight * b.tf * ($4::float8 + 1)
                       / (b.tf + $4::float8 * (1 - $5::float8 + $5::float8 * b.min_length / $6::float8))) AS bound
FROM (
  SELECT r.range_no, q.weight, r.min_length,
         r.max_tf + $7::float8 * r.max_tf_heading + $8::float8 * r.max_tf_title AS tf
  FROM unnest($2::text[], $3::float8[]) AS q(lexeme, weight)
  -- One index scan per term, whatever the statistics say (OFFSET 0 keeps the subquery apart; a
  -- freshly summarised table without statistics was otherwise read whole: 1.7 s instead of 5 ms).
  CROSS JOIN LATERAL (
    SELECT s.range_no, s.max_tf, s.max_tf_heading, s.max_tf_title, s.min_length
    FROM rag_lexical_ranges s
    WHERE s.workspace_id = $1 AND s.lexeme = q.lexeme AND s.range_no < $9::bigint
    OFFSET 0
  ) AS r
) AS b
WHERE b.tf > 0
GROUP BY b.range_no
ORDER BY bound DESC, b.range_no
