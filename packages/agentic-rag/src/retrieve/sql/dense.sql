-- Dense channel: cosine similarity over the workspace's chunks embedded by the current model.
SELECT c.id, 1 - (c.embedding <=> $2::vector) AS score
FROM rag_chunks c
WHERE c.workspace_id = $1 AND c.embedding_model = $3
ORDER BY c.embedding <=> $2::vector
LIMIT $4
