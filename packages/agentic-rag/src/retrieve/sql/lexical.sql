-- Lexical channel (first version): any query term matches, ranked by cover density.
SELECT c.id, ts_rank_cd(c.tsv, q.query) AS score
FROM rag_chunks c, to_tsquery('english', $2) AS q(query)
WHERE c.workspace_id = $1 AND c.tsv @@ q.query
ORDER BY score DESC
LIMIT $3
