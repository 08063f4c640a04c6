-- 2026-11-29_2_mention_strength: the graph channel reads, per entity, only its strongest mentions
-- (GraphStore.strongestMentions), so its cost stops growing with the number of chunks that
-- mention a common entity: an index range scan in order of strength instead of every mention.
CREATE INDEX rag_entity_mentions_strength_idx ON rag_entity_mentions (entity_id, mentions DESC, chunk_id);
