-- 2026-11-29_4_chunk_stable_ids: a chunk's stable id by its row id, from an index alone (issue 27).
-- The graph names chunks by their stable ids (chunk_id); its mentions hold row ids. Reading the
-- strongest mentions of a question's ~40 entities resolved ~1,200 row ids through the chunks'
-- heap, whose rows carry text and vectors (400 MB at 100k chunks, most of it outside the buffer
-- cache): 10 of the statement's 12 ms. This index is 7 MB at 100k chunks and answers index-only.
CREATE INDEX rag_chunks_stable_id_idx ON rag_chunks (id) INCLUDE (chunk_id);
