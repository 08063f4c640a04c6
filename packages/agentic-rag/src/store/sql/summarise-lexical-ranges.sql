-- Block-max summaries of the postings of chunks $3 <= id < $4 in workspace $1, in ranges of $2
-- chunk ids: per lexeme and range, the largest term frequency of each field and the shortest
-- chunk, which bound the lexeme's BM25F score in that range. A range already summarised (a
-- rebuild racing a refresh) keeps the looser of the two bounds, so it stays an upper bound.
INSERT INTO rag_lexical_ranges AS r (workspace_id, lexeme, range_no, max_tf, max_tf_heading, max_tf_title, min_length)
SELECT $1, p.lexeme, p.chunk_id / $2::bigint, max(p.tf), max(p.tf_heading), max(p.tf_title), min(p.chunk_length)
FROM rag_chunk_terms p
WHERE p.workspace_id = $1 AND p.chunk_id >= $3::bigint AND p.chunk_id < $4::bigint
GROUP BY p.lexeme, p.chunk_id / $2::bigint
ON CONFLICT (workspace_id, lexeme, range_no) DO UPDATE SET
  max_tf         = greatest(r.max_tf, excluded.max_tf),
  max_tf_heading = greatest(r.max_tf_heading, excluded.max_tf_heading),
  max_tf_title   = greatest(r.max_tf_title, excluded.max_tf_title),
  min_length     = least(r.min_length, excluded.min_length)
