-- 2026-11-22_2_graph: what the Postgres GraphStore needs beyond the first migration's tables.
--   aliases      spellings that resolved to the entity (declared aliases, long forms of acronyms)
--   defined_by   the document that defines the entity; its properties (title, number, chapter)
--                come from there and are cleared when that document goes
-- and the indexes that deletes and traversals need: mentions by chunk (chunk deletes cascade
-- through it), relations by document (a document's facts are removed with it) and by either end
-- with the type (neighbourhood expansion filters by relation type).

ALTER TABLE rag_entities
  ADD COLUMN aliases    text[] NOT NULL DEFAULT '{}',
  ADD COLUMN defined_by bigint REFERENCES rag_documents (id) ON DELETE SET NULL;

CREATE INDEX rag_entities_defined_by_idx ON rag_entities (defined_by) WHERE defined_by IS NOT NULL;
CREATE INDEX rag_entity_mentions_chunk_idx ON rag_entity_mentions (chunk_id);
CREATE INDEX rag_relations_document_idx ON rag_relations (document_id);
CREATE INDEX rag_relations_from_type_idx ON rag_relations (from_entity_id, type);
CREATE INDEX rag_relations_to_type_idx ON rag_relations (to_entity_id, type);
DROP INDEX rag_relations_to_idx;
